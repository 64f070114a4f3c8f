import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../shared/errors.js';
import { assertVersion, parseIfMatch } from '../../../shared/invoices/if-match.js';

describe('parseIfMatch', () => {
  it('reads plain, quoted and weak versions and ignores an absent header', () => {
    expect(parseIfMatch('3')).toBe(3);
    expect(parseIfMatch('"4"')).toBe(4);
    expect(parseIfMatch('W/"5"')).toBe(5);
    expect(parseIfMatch(undefined)).toBeUndefined();
  });

  it('treats a value that is not a version as a conflict', () => {
    expect(() => parseIfMatch('abc')).toThrow(ConflictError);
  });
});

describe('assertVersion', () => {
  it('is a conflict only when a version was given and differs', () => {
    expect(() => assertVersion(undefined, 2)).not.toThrow();
    expect(() => assertVersion(2, 2)).not.toThrow();
    expect(() => assertVersion(1, 2)).toThrow(ConflictError);
  });
});
