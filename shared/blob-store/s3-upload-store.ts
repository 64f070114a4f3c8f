import { AwsClient } from 'aws4fetch';
import type { AwsCredentialIdentity, Provider } from '@smithy/types';
import { defaultProvider } from '../aws/lambda-credential-provider.js';
import { ServiceUnavailableError } from '../errors.js';
import { assertBlobKey } from './blob-store.js';
import { S3RequestError, type S3Location } from './s3-blob-store.js';
import type { PresignedUpload, StagedObject, UploadConstraints, UploadStore } from './upload-store.js';

/** Objects are immutable under their keys; CloudFront and browsers may cache them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function objectUrl({ bucket, region, endpoint }: S3Location, key: string): string {
  // Keys match BLOB_KEY_PATTERN (lowercase letters, digits, dashes, slashes, one dot): nothing to encode.
  return endpoint ? `${endpoint.replace(/\/+$/, '')}/${bucket}/${key}` : `https://${bucket}.s3.${region}.amazonaws.com/${key}`;
}

/** `20261123T191655Z`, SigV4's timestamp format. */
function amzDate(date: Date): string {
  return date.toISOString().replace(/[:-]|\.\d{3}/g, '');
}

/**
 * Staging in S3: a private bucket (`IMAGE_UPLOADS_BUCKET`) whose objects expire after a day. Upload URLs
 * are SigV4 presigned PUTs that sign Content-Type and Content-Length, so S3 itself refuses another type
 * or size, or a late upload; promotion is a server-side CopyObject into the images bucket. Signed
 * requests through aws4fetch, like the blob store, to keep the S3 client out of the bundle.
 */
export class S3UploadStore implements UploadStore {
  constructor(
    private readonly uploads: S3Location,
    private readonly images: S3Location,
    private readonly credentials: Provider<AwsCredentialIdentity> = defaultProvider(),
  ) {}

  private async client(): Promise<AwsClient> {
    const { accessKeyId, secretAccessKey, sessionToken } = await this.credentials();
    return new AwsClient({ accessKeyId, secretAccessKey, sessionToken, service: 's3', region: this.uploads.region, retries: 2 });
  }

  async presignPut(key: string, constraints: UploadConstraints, _requestBaseUrl: string, now = new Date()): Promise<PresignedUpload> {
    assertBlobKey(key);
    const headers = { 'Content-Type': constraints.contentType, 'Content-Length': String(constraints.sizeBytes) };
    const url = new URL(objectUrl(this.uploads, key));
    url.searchParams.set('X-Amz-Expires', String(constraints.expiresInSeconds));
    const signed = await (await this.client()).sign(url.toString(), {
      method: 'PUT', headers, aws: { signQuery: true, allHeaders: true, datetime: amzDate(now) },
    });
    return {
      method: 'PUT',
      url: signed.url,
      headers,
      expiresAt: new Date(Math.floor(now.getTime() / 1000) * 1000 + constraints.expiresInSeconds * 1000),
    };
  }

  async head(key: string): Promise<StagedObject | undefined> {
    const response = await this.send(objectUrl(this.uploads, key), { method: 'HEAD' }, [403, 404]);
    // Without s3:ListBucket (which the function does not have) S3 answers a missing key with 403, not 404.
    if (response.status === 403 || response.status === 404) return undefined;
    return { sizeBytes: Number(response.headers.get('content-length') ?? 0) };
  }

  async readPrefix(key: string, maxBytes: number): Promise<Buffer> {
    const response = await this.send(objectUrl(this.uploads, key), { method: 'GET', headers: { Range: `bytes=0-${maxBytes - 1}` } });
    return Buffer.from(await response.arrayBuffer());
  }

  async read(key: string): Promise<Buffer> {
    const response = await this.send(objectUrl(this.uploads, key), { method: 'GET' });
    return Buffer.from(await response.arrayBuffer());
  }

  async promote(key: string, blobKey: string, contentType: string): Promise<void> {
    assertBlobKey(blobKey);
    const response = await this.send(objectUrl(this.images, blobKey), {
      method: 'PUT',
      headers: {
        'x-amz-copy-source': `/${this.uploads.bucket}/${key}`,
        'x-amz-metadata-directive': 'REPLACE',
        'Content-Type': contentType,
        'Cache-Control': IMMUTABLE,
      },
    });
    // CopyObject can fail after its 200 has started: the error is then in the body.
    const body = await response.text();
    if (body.includes('<Error>')) throw new S3RequestError(500, body);
  }

  async discard(key: string): Promise<void> {
    // Best effort: the bucket's lifecycle rule removes what is left after a day anyway.
    await this.send(objectUrl(this.uploads, key), { method: 'DELETE' }).catch(() => undefined);
  }

  private async send(url: string, init: { method: string; headers?: Record<string, string> }, accepted: readonly number[] = []): Promise<Response> {
    const response = await (await this.client()).fetch(url, init);
    if (response.ok || accepted.includes(response.status)) return response;
    const body = await response.text();
    if (response.status === 429 || response.status >= 500) throw Object.assign(new ServiceUnavailableError(), { cause: new S3RequestError(response.status, body) });
    throw new S3RequestError(response.status, body);
  }
}
