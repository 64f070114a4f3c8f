import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { assertBlobKey, cdnBlobUrl, type BlobStore } from './blob-store.js';

/**
 * S3 adapter: objects in a private bucket, downloaded through the CloudFront distribution in front of
 * it (`IMAGES_BASE_URL`), so URLs are stable and cacheable and the bucket never needs public access.
 */
export class S3BlobStore implements BlobStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly baseUrl: string,
  ) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertBlobKey(key);
    await this.client.send(new PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      Body: bytes,
      ContentType: contentType,
      // Keys are never reused (ids are unique), so the bytes behind a URL never change.
      CacheControl: 'public, max-age=31536000, immutable',
    }));
  }

  publicUrl(key: string): string {
    return cdnBlobUrl(this.baseUrl, key);
  }
}

/** One S3 client per process, like the DynamoDB client. */
let client: S3Client | undefined;
export function s3Client(): S3Client {
  client ??= new S3Client({ maxAttempts: 3 });
  return client;
}
