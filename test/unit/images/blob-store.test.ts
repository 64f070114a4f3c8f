import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore, createBlobUrls } from '../../../shared/blob-store/index.js';
import { createUploadStore } from '../../../shared/blob-store/uploads.js';
import { LocalUploadStore } from '../../../shared/blob-store/local-upload-store.js';
import { InvalidBlobKeyError } from '../../../shared/blob-store/blob-store.js';
import { LocalBlobStore, localBlobDir } from '../../../shared/blob-store/local-blob-store.js';
import { S3BlobStore } from '../../../shared/blob-store/s3-blob-store.js';
import { ServiceUnavailableError } from '../../../shared/errors.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('createBlobStore', () => {
  it('uses S3 behind IMAGES_BASE_URL when IMAGES_BUCKET is set', () => {
    // Act
    const store = createBlobStore({ IMAGES_BUCKET: 'bucket', IMAGES_BASE_URL: 'https://cdn.example.com/' });
    // Assess
    expect(store).toBeInstanceOf(S3BlobStore);
    expect(store.publicUrl('images/ws/abc.png', 'https://api.example.com')).toBe('https://cdn.example.com/images/ws/abc.png');
  });

  it('uses the local folder otherwise, served by the local server', () => {
    const store = createBlobStore({});
    expect(store).toBeInstanceOf(LocalBlobStore);
    expect(store.publicUrl('images/ws/abc.png', 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000/_local/blobs/images/ws/abc.png');
  });

  it('fails loudly in Lambda without IMAGES_BUCKET, never falling back to local disk', () => {
    expect(() => createBlobStore({ AWS_LAMBDA_FUNCTION_NAME: 'boxoffice-images' })).toThrow('Missing required environment variable IMAGES_BUCKET');
  });
});

describe('createUploadStore', () => {
  it('fails loudly in Lambda without IMAGE_UPLOADS_BUCKET, never staging uploads on local disk', () => {
    expect(() => createUploadStore({ AWS_LAMBDA_FUNCTION_NAME: 'boxoffice-images', IMAGES_BUCKET: 'bucket' })).toThrow('Missing required environment variable IMAGE_UPLOADS_BUCKET');
  });

  it('stages on local disk outside Lambda', () => {
    expect(createUploadStore({ LOCAL_DATA_DIR: tmpdir() })).toBeInstanceOf(LocalUploadStore);
  });
});

describe('createBlobUrls', () => {
  it('resolves keys behind IMAGES_BASE_URL when IMAGES_BUCKET is set, like the S3 store', () => {
    // Act
    const urls = createBlobUrls({ IMAGES_BUCKET: 'bucket', IMAGES_BASE_URL: 'https://cdn.example.com/' });
    // Assess
    expect(urls.publicUrl('images/ws/abc.png', 'https://api.example.com')).toBe('https://cdn.example.com/images/ws/abc.png');
  });

  it('resolves keys on the local server otherwise', () => {
    expect(createBlobUrls({}).publicUrl('images/ws/abc.png', 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000/_local/blobs/images/ws/abc.png');
  });

  it('refuses keys that are not service-minted', () => {
    const urls = createBlobUrls({ IMAGES_BUCKET: 'bucket', IMAGES_BASE_URL: 'https://cdn.example.com' });
    expect(() => urls.publicUrl('../secret', '')).toThrow(InvalidBlobKeyError);
  });
});

describe('localBlobDir', () => {
  it('prefers <LOCAL_DATA_DIR>/blobs, then LOCAL_BLOB_DIR, then .local/blobs', () => {
    expect(localBlobDir({ LOCAL_DATA_DIR: '/data', LOCAL_BLOB_DIR: '/other' })).toBe('/data/blobs');
    expect(localBlobDir({ LOCAL_DATA_DIR: '', LOCAL_BLOB_DIR: '/other' })).toBe('/other');
    expect(localBlobDir({})).toBe(resolve('.local/blobs'));
  });
});

describe('LocalBlobStore', () => {
  it('stores bytes and reads them back', async () => {
    // Prepare
    const dir = await mkdtemp(join(tmpdir(), 'blobs-'));
    dirs.push(dir);
    const store = new LocalBlobStore(dir);
    // Act
    await store.put('images/ws/one.png', Buffer.from([1, 2, 3]));
    // Assess
    expect(await store.get('images/ws/one.png')).toEqual(Buffer.from([1, 2, 3]));
    expect(await store.get('images/ws/absent.png')).toBeUndefined();
  });

  it('refuses keys that could escape its folder', async () => {
    const store = new LocalBlobStore(tmpdir());
    await expect(store.get('../etc/passwd')).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(store.put('images/../../x.png', Buffer.alloc(1))).rejects.toBeInstanceOf(InvalidBlobKeyError);
  });
});

describe('S3BlobStore', () => {
  const credentials = async () => ({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session-token' });
  const received: { method?: string; url?: string; headers: Record<string, string | string[] | undefined>; body: Buffer }[] = [];
  let status = 200;
  let endpoint: string;
  let server: Server;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(status);
        response.end(status === 200 ? '' : '<Error><Code>AccessDenied</Code></Error>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it('puts the bytes with one SigV4-signed request carrying the session token, type and cache headers', async () => {
    // Prepare
    status = 200;
    received.length = 0;
    const store = new S3BlobStore({ bucket: 'images-bucket', region: 'eu-west-1', endpoint }, 'https://cdn.example.com', credentials);
    // Act
    await store.put('images/ws/one.png', Buffer.from([1, 2, 3]), 'image/png');
    // Assess
    const [request] = received;
    expect(request?.method).toBe('PUT');
    expect(request?.url).toBe('/images-bucket/images/ws/one.png');
    expect(request?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}$/);
    expect(request?.headers['x-amz-security-token']).toBe('session-token');
    expect(request?.headers['x-amz-content-sha256']).toBeDefined();
    expect(request?.headers['content-type']).toBe('image/png');
    expect(request?.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(request?.body).toEqual(Buffer.from([1, 2, 3]));
  });

  it('fails with the status when S3 refuses the write, and as unavailable when S3 keeps failing', async () => {
    const store = new S3BlobStore({ bucket: 'images-bucket', region: 'eu-west-1', endpoint }, 'https://cdn.example.com', credentials);
    status = 403;
    await expect(store.put('images/ws/two.png', Buffer.from([1]), 'image/png')).rejects.toMatchObject({ name: 'S3RequestError', status: 403 });
    status = 503;
    await expect(store.put('images/ws/three.png', Buffer.from([1]), 'image/png')).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
