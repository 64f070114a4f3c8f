import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/errors.js';
import { parseIfMatch } from '../../../shared/http/if-match.js';

describe('parseIfMatch', () => {
  it.each([['3', 3], ['"3"', 3], ['W/"12"', 12], [' 7 ', 7]])('reads %j as version %i', (header, version) => {
    expect(parseIfMatch({ 'if-match': header })).toBe(version);
  });

  it('is undefined without the header, and for * (any current version, RFC 9110)', () => {
    expect(parseIfMatch({})).toBeUndefined();
    expect(parseIfMatch({ 'if-match': '*' })).toBeUndefined();
    expect(parseIfMatch({ 'if-match': ' * ' })).toBeUndefined();
  });

  it.each(['abc', '**', 'W/*', '-1', '1.5', ''])('rejects %j with a ValidationError', (header) => {
    expect(() => parseIfMatch({ 'if-match': header })).toThrow(ValidationError);
  });
});
