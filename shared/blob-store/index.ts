import { requireEnv } from '../config.js';
import { cdnBlobUrl, type BlobStore, type BlobUrls } from './blob-store.js';
import { LocalBlobStore, localBlobDir } from './local-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';

export type { BlobStore, BlobUrls } from './blob-store.js';

/**
 * Picks the adapter from the environment: `IMAGES_BUCKET` set means AWS (S3 + CloudFront). In Lambda the
 * bucket is required: a function deployed without it fails its cold start instead of writing to local disk.
 */
export function createBlobStore(env: NodeJS.ProcessEnv = process.env): BlobStore {
  if (env.IMAGES_BUCKET || env.AWS_LAMBDA_FUNCTION_NAME) {
    const bucket = env.IMAGES_BUCKET || requireEnv('IMAGES_BUCKET');
    const baseUrl = env.IMAGES_BASE_URL || requireEnv('IMAGES_BASE_URL');
    // S3_ENDPOINT (path-style) is set only by the deployed-artifact tier, for its S3 stand-in; never in AWS.
    const endpoint = env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {};
    return new S3BlobStore({ bucket, region: env.AWS_REGION || requireEnv('AWS_REGION'), ...endpoint }, baseUrl);
  }
  return new LocalBlobStore(localBlobDir(env));
}

let store: BlobStore | undefined;

/** The process-wide blob store, chosen on first use (the cold start in Lambda). */
export function blobStore(): BlobStore {
  store ??= createBlobStore();
  return store;
}

/**
 * Download URLs only, chosen like `createBlobStore`. Readers (checkouts resolving event images) use
 * this, so the S3 client stays out of their bundles: only the images function writes bytes.
 */
export function createBlobUrls(env: NodeJS.ProcessEnv = process.env): BlobUrls {
  if (env.IMAGES_BUCKET) {
    const baseUrl = env.IMAGES_BASE_URL || requireEnv('IMAGES_BASE_URL');
    return { publicUrl: (key) => cdnBlobUrl(baseUrl, key) };
  }
  return new LocalBlobStore(localBlobDir(env));
}

let urls: BlobUrls | undefined;

/** The process-wide URL resolver, chosen on first use. */
export function blobUrls(): BlobUrls {
  urls ??= createBlobUrls();
  return urls;
}
