import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../shared/errors.js';
import { assertVersion } from '../../../shared/invoices/if-match.js';

describe('assertVersion', () => {
  it('is a conflict only when a version was given and differs', () => {
    expect(() => assertVersion(undefined, 2)).not.toThrow();
    expect(() => assertVersion(2, 2)).not.toThrow();
    expect(() => assertVersion(1, 2)).toThrow(ConflictError);
  });
});
