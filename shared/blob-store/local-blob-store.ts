import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { assertBlobKey, type BlobStore } from './blob-store.js';

/** URL prefix under which the local server serves blobs (see bin/local/local-routes.ts). */
export const LOCAL_BLOB_ROUTE_PREFIX = '/_local/blobs/';

/**
 * Folder of the local adapter: `<LOCAL_DATA_DIR>/blobs` when `npm start --data-dir` is used (so blobs
 * survive restarts with the table), else `LOCAL_BLOB_DIR`, else `.local/blobs`.
 */
export function localBlobDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LOCAL_DATA_DIR) return resolve(env.LOCAL_DATA_DIR, 'blobs');
  return resolve(env.LOCAL_BLOB_DIR || '.local/blobs');
}

/** Writes then renames, creating the folder: a concurrent reader never sees a half-written file. */
export async function writeFileAtomically(path: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, path);
}

/** Stands in for S3 in development: files in a folder, served back by the local server. */
export class LocalBlobStore implements BlobStore {
  constructor(private readonly dir: string) {}

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await writeFileAtomically(this.pathOf(key), bytes);
  }

  publicUrl(key: string, requestBaseUrl: string): string {
    assertBlobKey(key);
    return `${requestBaseUrl}${LOCAL_BLOB_ROUTE_PREFIX}${key}`;
  }

  /** The stored bytes, or undefined when absent. */
  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return join(this.dir, ...key.split('/'));
  }
}
