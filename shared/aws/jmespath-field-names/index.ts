/**
 * Stands in for `@aws-lambda-powertools/jmespath` in the Lambda bundles (an esbuild alias set in
 * `lib/boxoffice-function.ts`; the local server, the admin CLI and the tests keep the real package).
 *
 * Powertools Idempotency imports the JMESPath interpreter for its `eventKeyJmesPath` and
 * `payloadValidationJmesPath`. Ours are the plain field names `id` and `fingerprint`
 * (shared/http/idempotency.ts), yet the lexer, parser and interpreter are 23 KiB of every bundle with
 * a keyed POST route, about 4% of its cold start (issue 16, P1). A JMESPath expression that is a bare
 * identifier selects that field of an object and `null` otherwise; that is all this evaluates. Any
 * other expression throws, so a richer path in the idempotency config fails on its first request
 * instead of keying records differently.
 */

/** A JMESPath unquoted identifier (the grammar's `unquoted-string`). */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class JMESPathError extends Error {
  override name = 'JMESPathError';
}

/** `search(expression, data)` of the real package, for expressions that are a bare field name. */
export function search(expression: string, data: unknown): unknown {
  if (!FIELD_NAME.test(expression)) {
    throw new JMESPathError(`The bundles' JMESPath stand-in evaluates bare field names only, not ${JSON.stringify(expression)}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !Object.hasOwn(data, expression)) return null;
  return (data as Record<string, unknown>)[expression];
}
