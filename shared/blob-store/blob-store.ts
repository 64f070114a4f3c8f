/**
 * Port for storing public binary objects (image bytes). Two adapters: S3 behind CloudFront when
 * deployed, a local folder under `npm start` and the tests. Domain code only sees this interface.
 */
export interface BlobStore {
  /** Stores `bytes` under `key` (overwriting). Keys are slash-separated, service-minted, never user input. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /**
   * Public download URL of `key`. `requestBaseUrl` is the API root the client called: the local adapter
   * serves blobs from the local server itself, whose port is only known per request.
   */
  publicUrl(key: string, requestBaseUrl: string): string;
}

/** What readers of stored records need: download URLs, without the means (or the SDK) to write. */
export type BlobUrls = Pick<BlobStore, 'publicUrl'>;

/** Keys are built by the service; anything else (traversal, odd characters) is refused by both adapters. */
export const BLOB_KEY_PATTERN = /^[a-z0-9-]+(\/[a-z0-9-]+)*\.[a-z0-9]+$/;

export class InvalidBlobKeyError extends Error {
  constructor(key: string) {
    super(`Invalid blob key: ${key}`);
    this.name = 'InvalidBlobKeyError';
  }
}

export function assertBlobKey(key: string): void {
  if (!BLOB_KEY_PATTERN.test(key)) throw new InvalidBlobKeyError(key);
}

/** Content type from a key's extension: the local adapter keeps no metadata beside the bytes. */
export function contentTypeOfKey(key: string): string {
  if (key.endsWith('.png')) return 'image/png';
  if (key.endsWith('.jpg') || key.endsWith('.jpeg')) return 'image/jpeg';
  return 'application/octet-stream';
}

/** The URL of `key` behind a CDN (CloudFront in front of the S3 bucket): `<baseUrl>/<key>`. */
export function cdnBlobUrl(baseUrl: string, key: string): string {
  assertBlobKey(key);
  return `${baseUrl.replace(/\/+$/, '')}/${key}`;
}
