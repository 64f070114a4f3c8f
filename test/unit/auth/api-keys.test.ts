import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, generateApiKey, hashApiKey, parseBearer } from '../../../shared/auth/api-keys.js';
import { isId, newId } from '../../../shared/ids.js';

describe('API keys', () => {
  it('mints bo_live_ keys with 40 base62 characters, all different', () => {
    const keys = Array.from({ length: 50 }, generateApiKey);
    for (const key of keys) expect(key).toMatch(/^bo_live_[0-9A-Za-z]{40}$/);
    expect(new Set(keys).size).toBe(50);
  });

  it('stores a SHA-256 hex digest that never contains the key', () => {
    const key = generateApiKey();
    const hash = hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key.slice(8));
    expect(hashApiKey(key)).toBe(hash);
  });

  it.each([
    ['Bearer bo_live_' + 'a'.repeat(32), 'bo_live_' + 'a'.repeat(32)],
    ['bearer   bo_live_' + 'B'.repeat(40) + '  ', 'bo_live_' + 'B'.repeat(40)],
    ['Basic bo_live_' + 'a'.repeat(32), undefined],
    ['Bearer bo_live_short', undefined],
    ['Bearer sk_live_' + 'a'.repeat(32), undefined],
    ['Bearer bo_live_' + 'a'.repeat(31) + '!', undefined],
    ['', undefined],
  ])('parses %j as %j', (header, expected) => {
    expect(parseBearer(header)).toBe(expected);
  });

  it('accepts exactly the documented key format', () => {
    expect(API_KEY_PATTERN.test(generateApiKey())).toBe(true);
  });
});

describe('ids', () => {
  it('mints 24-hex ids whose first 8 hex digits are the creation second', () => {
    const at = new Date('2026-11-21T10:00:00Z');
    const id = newId(at);
    expect(isId(id)).toBe(true);
    expect(parseInt(id.slice(0, 8), 16)).toBe(at.getTime() / 1000);
  });

  it('sorts later ids after earlier ones', () => {
    const earlier = newId(new Date('2026-01-01T00:00:00Z'));
    const later = newId(new Date('2026-01-01T00:00:01Z'));
    expect(earlier < later).toBe(true);
  });
});
