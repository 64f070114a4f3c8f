import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { assertBlobKey } from './blob-store.js';
import { LocalBlobStore, localBlobDir, writeFileAtomically } from './local-blob-store.js';
import type { PresignedUpload, StagedObject, UploadConstraints, UploadStore } from './upload-store.js';

/** URL prefix under which the local server accepts signed uploads (see bin/local/local-routes.ts). */
export const LOCAL_UPLOAD_ROUTE_PREFIX = '/_local/uploads/';

/** Staged uploads live beside the blobs: `.local/uploads`, or `<data-dir>/uploads`. */
export function localUploadDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(localBlobDir(env), '..', 'uploads');
}

/**
 * Signs local upload URLs like S3 signs presigned ones: the key, content type, exact length and
 * expiry are bound by an HMAC, so the local server refuses any other. The key is per process (the
 * server and the handlers share it), or LOCAL_UPLOAD_SECRET.
 */
const SECRET = process.env.LOCAL_UPLOAD_SECRET || randomBytes(32).toString('hex');

function signature(key: string, contentType: string, sizeBytes: number, expires: number): string {
  return createHmac('sha256', SECRET).update(['PUT', key, contentType, String(sizeBytes), String(expires)].join('\n')).digest('hex');
}

export type LocalUploadRefusal = { status: 403; code: 'AccessDenied' | 'SignatureDoesNotMatch'; message: string };

/** Checks a local upload request against its signature and expiry, as S3 checks a presigned PUT. */
export function verifyLocalUpload(key: string, query: URLSearchParams, contentType: string, contentLength: string | undefined, now = new Date()): LocalUploadRefusal | undefined {
  const expires = Number(query.get('expires'));
  const given = Buffer.from(query.get('signature') ?? '', 'hex');
  if (!Number.isInteger(expires) || now.getTime() > expires * 1000) return { status: 403, code: 'AccessDenied', message: 'Request has expired' };
  const expected = Buffer.from(signature(key, contentType, Number(contentLength), expires), 'hex');
  if (contentLength === undefined || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  }
  return undefined;
}

/** Stands in for the S3 uploads bucket in development: files in a folder, PUT through the local server. */
export class LocalUploadStore implements UploadStore {
  constructor(private readonly dir: string, private readonly blobDir: string) {}

  async presignPut(key: string, constraints: UploadConstraints, requestBaseUrl: string, now = new Date()): Promise<PresignedUpload> {
    assertBlobKey(key);
    const expires = Math.floor(now.getTime() / 1000) + constraints.expiresInSeconds;
    const query = new URLSearchParams({ expires: String(expires), signature: signature(key, constraints.contentType, constraints.sizeBytes, expires) });
    return {
      method: 'PUT',
      url: `${requestBaseUrl}${LOCAL_UPLOAD_ROUTE_PREFIX}${key}?${query}`,
      headers: { 'Content-Type': constraints.contentType, 'Content-Length': String(constraints.sizeBytes) },
      expiresAt: new Date(expires * 1000),
    };
  }

  /** Stores bytes the local server received and verified. */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    await writeFileAtomically(this.pathOf(key), bytes);
  }

  async head(key: string): Promise<StagedObject | undefined> {
    try {
      return { sizeBytes: (await stat(this.pathOf(key))).size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async readPrefix(key: string, maxBytes: number): Promise<Buffer> {
    const file = await open(this.pathOf(key), 'r');
    try {
      const buffer = Buffer.alloc(maxBytes);
      const { bytesRead } = await file.read(buffer, 0, maxBytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }

  read(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async promote(key: string, blobKey: string): Promise<void> {
    await new LocalBlobStore(this.blobDir).put(blobKey, await this.read(key));
  }

  async discard(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return join(this.dir, ...key.split('/'));
  }
}
