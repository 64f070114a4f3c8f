import { requireEnv } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore, localBlobDir } from './local-blob-store.js';
import { S3BlobStore, s3Client } from './s3-blob-store.js';

export type { BlobStore } from './blob-store.js';

/** Picks the adapter from the environment: `IMAGES_BUCKET` set means AWS (S3 + CloudFront). */
export function createBlobStore(env: NodeJS.ProcessEnv = process.env): BlobStore {
  if (env.IMAGES_BUCKET) {
    const baseUrl = env.IMAGES_BASE_URL || requireEnv('IMAGES_BASE_URL');
    return new S3BlobStore(s3Client(), env.IMAGES_BUCKET, baseUrl);
  }
  return new LocalBlobStore(localBlobDir(env));
}

let store: BlobStore | undefined;

/** The process-wide blob store, chosen on first use (the cold start in Lambda). */
export function blobStore(): BlobStore {
  store ??= createBlobStore();
  return store;
}
