import { ValidationError } from '../../shared/errors.js';

/**
 * The version an `If-Match` header pins (`3` or the ETag-style `"3"`); undefined without the header.
 * A value that is not a version number is a 422 rather than a silent unconditional write.
 */
export function ifMatchVersion(headers: Record<string, string | undefined>): number | undefined {
  const raw = headers['if-match'];
  if (raw === undefined) return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(raw);
  if (!match) throw new ValidationError({ path: 'If-Match', message: 'If-Match must be the integer version of the form' });
  return Number(match[1]);
}
