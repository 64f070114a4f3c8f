import { createHash } from 'node:crypto';

/**
 * Serving the OpenAPI document, without building it: no zod, no generator. The docs function serves
 * the document built at bundling time (`openapi.json` next to its bundle), so the generator and every
 * group's schemas stay out of every deployed bundle (they would push the docs function past its size
 * budget and its cold start past the others').
 */

/** The name of the built document, next to the docs bundle (deployed) or at OPENAPI_DOCUMENT_PATH. */
export const OPENAPI_DOCUMENT_FILE = 'openapi.json';

/** The document with `servers` pointing at the URL the client used. */
export function withServer<T extends object>(document: T, baseUrl: string): T & { servers: { url: string }[] } {
  return { ...document, servers: [{ url: baseUrl }] };
}

/** The document as sent: its JSON text and a strong ETag of it. */
export interface SerializedDocument {
  readonly body: string;
  readonly etag: string;
}

/** One serialised document per base URL (deployed there is one; a bound keeps odd Host headers cheap). */
const MAX_SERIALIZED = 16;

/**
 * The document for each base URL, serialised once per process and base URL: the JSON text is not
 * rebuilt per request, and its ETag lets clients revalidate with `If-None-Match` for a 304.
 */
export function documentServer(load: () => object): (baseUrl: string) => SerializedDocument {
  const serialized = new Map<string, SerializedDocument>();
  let document: object | undefined;
  return (baseUrl) => {
    let entry = serialized.get(baseUrl);
    if (!entry) {
      document ??= load();
      const body = JSON.stringify(withServer(document, baseUrl));
      entry = { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
      if (serialized.size >= MAX_SERIALIZED) serialized.delete(serialized.keys().next().value as string);
      serialized.set(baseUrl, entry);
    }
    return entry;
  };
}
