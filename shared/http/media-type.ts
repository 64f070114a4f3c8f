/** A `Content-Type` header value as the routes read it. */
export interface ContentType {
  /** The media type, lower-cased (`application/json`, `image/png`); '' when the header is absent. */
  type: string;
  /** The `charset` parameter, unquoted and lower-cased, when there is one. */
  charset?: string;
}

/**
 * Reads a `Content-Type` header: the media type before any `;`, and its `charset`. Lenient on purpose
 * (a trailing `;` or an unknown parameter is no error): the routes refuse by media type and charset only.
 */
export function parseContentType(value: string | undefined): ContentType {
  const [type = '', ...parameters] = (value ?? '').split(';');
  const charset = parameters.map((parameter) => parameter.split('=')).find(([name = '']) => name.trim().toLowerCase() === 'charset')?.[1];
  return { type: type.trim().toLowerCase(), ...(charset === undefined ? {} : { charset: charset.trim().replace(/^"(.*)"$/, '$1').toLowerCase() }) };
}
