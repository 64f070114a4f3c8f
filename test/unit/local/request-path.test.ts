import { describe, expect, it } from 'vitest';
import { requestPath } from '../../../bin/local/api-gateway-event.js';

describe('requestPath', () => {
  it.each([
    ['/v1/forms/abc/', '/v1/forms/abc/'],
    ['/v1/forms?limit=5&a=..', '/v1/forms'],
    ['/v1/forms/%2e%2e?x=1', '/v1/forms/%2e%2e'],
    ['/v1/forms/../health', '/v1/forms/../health'],
    ['/v1/forms/./x', '/v1/forms/./x'],
    ['http://127.0.0.1:3000/v1/forms/../x?y', '/v1/forms/../x'],
    ['/v1/forms\\..', '/v1/forms%5C..'],
    ['/v1/forms/{id}"', '/v1/forms/%7Bid%7D%22'],
    ['/health#top', '/health'],
    ['*', '/*'],
  ])('routes %s as %s: as sent, without its query, dot segments kept', (target, path) => {
    // Act
    const routed = requestPath(target);

    // Assess
    expect(routed).toBe(path);
  });
});
