import { requireEnv } from '../config.js';
import { localBlobDir } from './local-blob-store.js';
import { LocalUploadStore, localUploadDir } from './local-upload-store.js';
import { S3UploadStore } from './s3-upload-store.js';
import type { UploadStore } from './upload-store.js';

export type { UploadStore } from './upload-store.js';

/**
 * Picks the adapter from the environment: `IMAGE_UPLOADS_BUCKET` set means AWS (S3 staging bucket). In Lambda
 * the bucket is required: a function deployed without it fails instead of staging uploads on local disk.
 */
export function createUploadStore(env: NodeJS.ProcessEnv = process.env): UploadStore {
  if (env.IMAGE_UPLOADS_BUCKET || env.AWS_LAMBDA_FUNCTION_NAME) {
    const uploadsBucket = env.IMAGE_UPLOADS_BUCKET || requireEnv('IMAGE_UPLOADS_BUCKET');
    const region = env.AWS_REGION || requireEnv('AWS_REGION');
    // S3_ENDPOINT (path-style) is set only by the deployed-artifact tier, for its S3 stand-in.
    const endpoint = env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {};
    return new S3UploadStore(
      { bucket: uploadsBucket, region, ...endpoint },
      { bucket: env.IMAGES_BUCKET || requireEnv('IMAGES_BUCKET'), region, ...endpoint },
    );
  }
  return new LocalUploadStore(localUploadDir(env), localBlobDir(env));
}

let store: UploadStore | undefined;

/** The process-wide upload store, chosen on first use (the cold start in Lambda). */
export function uploadStore(): UploadStore {
  store ??= createUploadStore();
  return store;
}
