import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toProxyEvent } from '../../../bin/local/api-gateway-event.js';
import {
  EDGE_RULES, LAMBDA_INVOKE_LIMIT_BYTES, LAMBDA_MAX_BINARY_BODY_BYTES, decimalAtMost, refusingEdgeRule,
} from '../../../shared/http/edge-rules.js';
import { routeTable } from '../../../shared/http/routes.js';
import { MAX_IMAGE_BYTES } from '../../../shared/images/image-limits.js';

describe('decimalAtMost', () => {
  it('matches exactly the decimal integers up to the limit, leading zeros included', () => {
    fc.assert(fc.property(fc.nat(50_000_000), fc.nat(99_999_999), fc.nat(3), (max, value, zeros) => {
      // Act
      const matched = new RegExp(decimalAtMost(max)).test(`${'0'.repeat(zeros)}${value}`);

      // Assess
      expect(matched).toBe(value <= max);
    }));
  });

  it('refuses what is not a plain number', () => {
    // Prepare
    const regex = new RegExp(decimalAtMost(4_669_440));

    // Assess
    for (const text of ['', '-1', '1e9', ' 12', '12 ', '4669440.0', 'abc']) expect(regex.test(text)).toBe(false);
  });
});

describe('edge rules', () => {
  const rule = EDGE_RULES[0]!;

  it('let the function answer every image body Lambda can still take (the function\'s own 413 is below it)', () => {
    // Assess
    expect(MAX_IMAGE_BYTES).toBeLessThan(LAMBDA_MAX_BINARY_BODY_BYTES);
    expect(rule.maxContentLength).toBe(LAMBDA_MAX_BINARY_BODY_BYTES);
  });

  it('keep the largest allowed body, base64-encoded in a proxy event with 10 KiB of headers, under Lambda\'s 6 MB', () => {
    // Prepare
    const route = routeTable.find((candidate) => candidate.operation === 'registerImage')!;
    const headers: Record<string, string> = { 'content-type': 'image/png', authorization: `Bearer bo_live_${'x'.repeat(40)}` };
    for (let i = 0; i < 40; i += 1) headers[`x-filler-${i}`] = 'y'.repeat(230);
    const request = {
      method: 'POST', url: new URL('http://127.0.0.1/v1/assets/images?filename=poster.png'), path: '/v1/assets/images', headers,
      body: Buffer.alloc(LAMBDA_MAX_BINARY_BODY_BYTES), sourceIp: '127.0.0.1', requestId: 'r',
    };

    // Act
    const event = toProxyEvent(request, route, {}, { workspaceId: 'a'.repeat(24), principalId: 'p' });

    // Assess
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThan(LAMBDA_INVOKE_LIMIT_BYTES);
  });

  it('refuse an image upload above the limit or without Content-Length, with or without a trailing slash', () => {
    // Assess
    expect(refusingEdgeRule('POST', '/v1/assets/images', String(rule.maxContentLength + 1))).toBe(rule);
    expect(refusingEdgeRule('POST', '/v1/assets/images/', '99999999')).toBe(rule);
    expect(refusingEdgeRule('POST', '/v1/assets/images', undefined)).toBe(rule);
  });

  it('let through an image upload at the limit, and every other route', () => {
    // Assess
    expect(refusingEdgeRule('POST', '/v1/assets/images', String(rule.maxContentLength))).toBeUndefined();
    expect(refusingEdgeRule('POST', '/v1/assets/images/uploads', '99999999')).toBeUndefined();
    expect(refusingEdgeRule('GET', '/v1/assets/images', undefined)).toBeUndefined();
  });

  it('answer 413 payload_too_large pointing to the two-step upload', () => {
    // Act
    const body = JSON.parse(rule.body) as { error: { code: string; message: string } };

    // Assess
    expect(rule.status).toBe(413);
    expect(body.error.code).toBe('payload_too_large');
    expect(body.error.message).toContain('POST /v1/assets/images/uploads');
  });
});
