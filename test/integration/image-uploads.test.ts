import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_RULES } from '../../shared/http/edge-rules.js';
import { MAX_IMAGE_BYTES } from '../../shared/images/image-limits.js';
import { paddedPng } from '../../shared/images/sample-images.js';
import { createApiKey } from '../../shared/workspaces/workspaces-repository.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

const MiB = 1024 * 1024;
let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace();
});
afterAll(async () => api.close());

async function startUpload(sizeBytes: number, overrides: Record<string, unknown> = {}, key = workspace.apiKey) {
  return api.request('POST', '/v1/assets/images/uploads', { key, body: { filename: 'poster.png', contentType: 'image/png', sizeBytes, ...overrides } });
}

function put(upload: { url: string; headers: Record<string, string> }, bytes: Uint8Array, headers: Record<string, string> = {}) {
  return fetch(upload.url, { method: 'PUT', headers: { ...upload.headers, ...headers }, body: bytes });
}

describe('two-step image upload (local server)', () => {
  it.each([[5 * MiB, 640, 480], [20 * MiB, 1600, 1200]])('registers a %i-byte image: PUT to the upload URL, then complete', async (size, width, height) => {
    // Prepare
    const bytes = paddedPng(width, height, size);
    const started = await startUpload(size);
    expect(started.status).toBe(201);
    const { upload, id, expiresAt } = started.body.data;
    expect(upload.method).toBe('PUT');
    expect(upload.headers).toEqual({ 'Content-Type': 'image/png', 'Content-Length': String(size) });
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(10 * 60 * 1000);

    // Act
    const sent = await put(upload, bytes);
    const completed = await api.request('POST', `/v1/assets/images/uploads/${id}/complete`, { key: workspace.apiKey });

    // Assess
    expect(sent.status).toBe(200);
    expect(completed.status).toBe(201);
    expect(completed.body.data).toMatchObject({ width, height, sizeBytes: size, contentType: 'image/png', filename: 'poster.png' });
    const read = await api.request('GET', `/v1/assets/images/${completed.body.data.id}`, { key: workspace.apiKey });
    expect(read.body.data.url).toBe(completed.body.data.url);
    const download = await fetch(completed.body.data.url);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses a PUT of another length or content type than signed (403, as S3 does)', async () => {
    // Prepare
    const { upload } = (await startUpload(1000)).body.data;

    // Act
    const longer = await put(upload, paddedPng(4, 4, 1001), { 'Content-Length': '1001' });
    const otherType = await put(upload, paddedPng(4, 4, 1000), { 'Content-Type': 'image/jpeg' });

    // Assess
    expect(longer.status).toBe(403);
    expect(await longer.text()).toContain('SignatureDoesNotMatch');
    expect(otherType.status).toBe(403);
  });

  it('refuses a PUT whose URL was tampered with (a later expiry)', async () => {
    // Prepare
    const { upload } = (await startUpload(1000)).body.data;
    const url = new URL(upload.url);
    url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));

    // Act
    const response = await put({ ...upload, url: url.toString() }, paddedPng(4, 4, 1000));

    // Assess
    expect(response.status).toBe(403);
  });

  it('answers 409 invalid_state when completing before the bytes arrived, and when completing twice', async () => {
    // Prepare
    const { upload, id } = (await startUpload(2000)).body.data;

    // Act
    const early = await api.request('POST', `/v1/assets/images/uploads/${id}/complete`, { key: workspace.apiKey });
    await put(upload, paddedPng(10, 10, 2000));
    const first = await api.request('POST', `/v1/assets/images/uploads/${id}/complete`, { key: workspace.apiKey });
    const again = await api.request('POST', `/v1/assets/images/uploads/${id}/complete`, { key: workspace.apiKey });

    // Assess
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('PUT') });
    expect(first.status).toBe(201);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain(first.body.data.id);
  });

  it('refuses bytes that are not the declared image type (422 at upload)', async () => {
    // Prepare
    const { upload, id } = (await startUpload(3000)).body.data;
    await put(upload, Buffer.alloc(3000, 0x41));

    // Act
    const completed = await api.request('POST', `/v1/assets/images/uploads/${id}/complete`, { key: workspace.apiKey });

    // Assess
    expect(completed.status).toBe(422);
    expect(completed.body.error.details).toEqual([expect.objectContaining({ path: 'upload' })]);
  });

  it('refuses a declared size above 25 MiB and a type other than PNG or JPEG', async () => {
    // Act
    const tooLarge = await startUpload(25 * MiB + 1);
    const gif = await startUpload(1000, { contentType: 'image/gif' });

    // Assess
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body.error.details.map((detail: { path: string }) => detail.path)).toContain('sizeBytes');
    expect(gif.status).toBe(422);
  });

  it('keeps another workspace\'s upload a 404', async () => {
    // Prepare
    const other = await api.newWorkspace('Other');
    const { id } = (await startUpload(1000, {}, other.apiKey)).body.data;

    // Act
    const response = await api.request('POST', `/v1/assets/images/uploads/${id}/complete`, { key: workspace.apiKey });

    // Assess
    expect(response.status).toBe(404);
  });

  it('refuses a read-only key', async () => {
    // Prepare
    const { apiKey } = await createApiKey(workspace.workspaceId, 'read_only');

    // Act
    const response = await startUpload(1000, {}, apiKey);

    // Assess
    expect(response.status).toBe(403);
  });
});

describe('single-request image upload limits', () => {
  it('answers 413 with a pointer to the two-step upload just above 4 MiB (from the function)', async () => {
    // Act
    const response = await api.request('POST', '/v1/assets/images?filename=big.png', {
      key: workspace.apiKey, raw: paddedPng(100, 100, MAX_IMAGE_BYTES + 1), headers: { 'content-type': 'image/png' },
    });

    // Assess
    expect(response.status).toBe(413);
    expect(response.body.error).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('POST /v1/assets/images/uploads') });
  });

  it('answers the same 413 at the edge above what one Lambda invocation can take (5 MiB)', async () => {
    // Act
    const response = await api.request('POST', '/v1/assets/images?filename=big.png', {
      key: workspace.apiKey, raw: paddedPng(100, 100, 5 * MiB), headers: { 'content-type': 'image/png' },
    });

    // Assess
    expect(response.status).toBe(413);
    expect(response.text).toBe(EDGE_RULES[0]!.body);
    // As every gateway error: readable cross-origin, with the security headers.
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('still registers a 4 MiB image in one request', async () => {
    // Act
    const response = await api.request('POST', '/v1/assets/images?filename=ok.png', {
      key: workspace.apiKey, raw: paddedPng(100, 100, MAX_IMAGE_BYTES), headers: { 'content-type': 'image/png' },
    });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data.sizeBytes).toBe(MAX_IMAGE_BYTES);
  });
});
