import { AwsClient } from 'aws4fetch';
import type { AwsCredentialIdentity, Provider } from '@smithy/types';
import { defaultProvider } from '../aws/lambda-credential-provider.js';
import { ServiceUnavailableError } from '../errors.js';
import { assertBlobKey, cdnBlobUrl, type BlobStore } from './blob-store.js';

/** Where the bucket is; `endpoint` (path-style) only for tests and S3-compatible stand-ins. */
export interface S3Location {
  readonly bucket: string;
  readonly region: string;
  readonly endpoint?: string;
}

/** S3 answered a write with an error status that retrying will not fix. */
export class S3RequestError extends Error {
  constructor(readonly status: number, body: string) {
    super(`S3 PutObject failed with ${status}: ${body.slice(0, 300)}`);
    this.name = 'S3RequestError';
  }
}

/**
 * S3 adapter: objects in a private bucket, downloaded through the CloudFront distribution in front of
 * it (`IMAGES_BASE_URL`), so URLs are stable and cacheable and the bucket never needs public access.
 *
 * Writes are one SigV4-signed `PUT` (aws4fetch over the runtime's fetch) rather than the S3 client:
 * the client and its middleware are ~190 KiB, which would take the images function over its bundle
 * budget (README "Cold start") for a single PutObject.
 */
export class S3BlobStore implements BlobStore {
  constructor(
    private readonly location: S3Location,
    private readonly baseUrl: string,
    private readonly credentials: Provider<AwsCredentialIdentity> = defaultProvider(),
  ) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertBlobKey(key);
    const { accessKeyId, secretAccessKey, sessionToken } = await this.credentials();
    const client = new AwsClient({ accessKeyId, secretAccessKey, sessionToken, service: 's3', region: this.location.region, retries: 2 });
    const response = await client.fetch(this.objectUrl(key), {
      method: 'PUT',
      body: bytes,
      headers: {
        'Content-Type': contentType,
        // Keys are never reused (ids are unique), so the bytes behind a URL never change.
        'Cache-Control': 'public, max-age=31536000, immutable',
      },
    });
    if (response.ok) return;
    const body = await response.text();
    // Throttling and server errors after aws4fetch's retries: the client may retry (503), like DynamoDB's.
    if (response.status === 429 || response.status >= 500) throw Object.assign(new ServiceUnavailableError(), { cause: new S3RequestError(response.status, body) });
    throw new S3RequestError(response.status, body);
  }

  publicUrl(key: string): string {
    return cdnBlobUrl(this.baseUrl, key);
  }

  private objectUrl(key: string): string {
    const { bucket, region, endpoint } = this.location;
    // Keys match BLOB_KEY_PATTERN (lowercase letters, digits, dashes, slashes, one dot): nothing to encode.
    return endpoint ? `${endpoint.replace(/\/+$/, '')}/${bucket}/${key}` : `https://${bucket}.s3.${region}.amazonaws.com/${key}`;
  }
}
