import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegHeader, solidPng } from '../../shared/images/sample-images.js';
import { createApiKey } from '../../shared/workspaces/workspaces-repository.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let host: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  [host, other] = await Promise.all([api.newWorkspace('Images host'), api.newWorkspace('Images other')]);
});
afterAll(async () => api.close());

function upload(workspace: TestWorkspace, bytes: Uint8Array | string, contentType: string, filename = 'poster.png') {
  return api.request('POST', `/v1/assets/images?filename=${encodeURIComponent(filename)}`, {
    key: workspace.apiKey, raw: bytes, headers: { 'content-type': contentType },
  });
}

describe('POST /v1/assets/images', () => {
  it('registers a PNG with every field present and dimensions read from the image', async () => {
    // Prepare
    const png = solidPng(12, 5);
    const before = Date.now();
    // Act
    const response = await upload(host, png, 'image/png', 'Summer poster.png');
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(/^[a-f0-9]{24}$/),
      hostId: host.workspaceId,
      url: expect.stringMatching(/^http:\/\/.+\.png$/),
      width: 12,
      height: 5,
      contentType: 'image/png',
      sizeBytes: png.length,
      filename: 'Summer poster.png',
      purpose: 'content',
      createdAt: expect.any(Number),
      lastPublishedAt: null,
    });
    expect(response.body.data.createdAt).toBeGreaterThanOrEqual(before - 1000);
  });

  it('returns a url that downloads exactly the uploaded bytes with their content type', async () => {
    // Prepare
    const png = solidPng(3, 3, [1, 2, 3]);
    const created = await upload(host, png, 'image/png');
    // Act
    const download = await fetch(created.body.data.url);
    // Assess
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);
  });

  it('registers a JPEG and reads its dimensions', async () => {
    const response = await upload(host, jpegHeader(320, 200), 'image/jpeg', 'photo.jpg');
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ contentType: 'image/jpeg', width: 320, height: 200, filename: 'photo.jpg' });
    expect(response.body.data.url).toMatch(/\.jpg$/);
  });

  it('is 422 for text bytes declared as a PNG', async () => {
    const response = await upload(host, 'this is not a png', 'image/png');
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'validation_failed', details: [{ path: 'body', message: expect.any(String) }] });
  });

  it('is 422 when the bytes are a PNG but the declared type is JPEG', async () => {
    const response = await upload(host, solidPng(2, 2), 'image/jpeg');
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
  });

  it('is 422 for an empty body', async () => {
    const response = await upload(host, new Uint8Array(0), 'image/png');
    expect(response.status).toBe(422);
  });

  it('is 415 for a content type other than PNG or JPEG', async () => {
    const response = await upload(host, 'GIF89a', 'image/gif');
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('unsupported_media_type');
  });

  it('is 413 above 5 MiB', async () => {
    // Prepare: a real PNG signature followed by padding, one byte over the limit
    const tooBig = Buffer.alloc(5 * 1024 * 1024 + 1);
    solidPng(1, 1).copy(tooBig);
    // Act
    const response = await upload(host, tooBig, 'image/png');
    // Assess
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
  });

  it('is 422 without a filename', async () => {
    const response = await api.request('POST', '/v1/assets/images', { key: host.apiKey, raw: solidPng(1, 1), headers: { 'content-type': 'image/png' } });
    expect(response.status).toBe(422);
    expect(response.body.error.details[0].path).toBe('filename');
  });

  it('is 422 for an empty or blank filename, naming only that problem', async () => {
    // Act
    const responses = await Promise.all(['', '   '].map((filename) => upload(host, solidPng(1, 1), 'image/png', filename)));
    // Assess
    for (const response of responses) {
      expect(response.status).toBe(422);
      expect(response.body.error.details).toEqual([{ path: 'filename', message: 'must not be empty' }]);
    }
  });

  it('replays the first response for a repeated Idempotency-Key instead of registering twice', async () => {
    // Prepare
    const owner = await api.newWorkspace('Images idempotency');
    const headers = { 'content-type': 'image/png', 'idempotency-key': 'upload-1' };
    const png = solidPng(2, 2);
    // Act
    const first = await api.request('POST', '/v1/assets/images?filename=a.png', { key: owner.apiKey, raw: png, headers });
    const again = await api.request('POST', '/v1/assets/images?filename=a.png', { key: owner.apiKey, raw: png, headers });
    const different = await api.request('POST', '/v1/assets/images?filename=a.png', { key: owner.apiKey, raw: solidPng(3, 3), headers });
    // Assess
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(different.status).toBe(409);
    expect(different.body.error.code).toBe('idempotency_key_reused');
    expect((await api.request('GET', '/v1/assets/images', { key: owner.apiKey })).body.data).toHaveLength(1);
  });

  it('is 403 for a read-only key, which can still list', async () => {
    const { apiKey } = await createApiKey(host.workspaceId, 'read_only');
    const upload = await api.request('POST', '/v1/assets/images?filename=a.png', { key: apiKey, raw: solidPng(1, 1), headers: { 'content-type': 'image/png' } });
    expect(upload.status).toBe(403);
    expect((await api.request('GET', '/v1/assets/images', { key: apiKey })).status).toBe(200);
  });

  it('is 401 without a key', async () => {
    const response = await api.request('POST', '/v1/assets/images?filename=a.png', { raw: solidPng(1, 1), headers: { 'content-type': 'image/png' } });
    expect(response.status).toBe(401);
  });
});

describe('GET /v1/assets/images/{id}', () => {
  it('returns the registered image', async () => {
    const created = await upload(host, solidPng(4, 4), 'image/png', 'a.png');
    const response = await api.request('GET', `/v1/assets/images/${created.body.data.id}`, { key: host.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: created.body.data });
  });

  it('is 404 for another workspace\'s image', async () => {
    const created = await upload(host, solidPng(4, 4), 'image/png');
    const response = await api.request('GET', `/v1/assets/images/${created.body.data.id}`, { key: other.apiKey });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it('is 404 for an unknown or malformed id', async () => {
    const unknown = await api.request('GET', '/v1/assets/images/0123456789abcdef01234567', { key: host.apiKey });
    const malformed = await api.request('GET', '/v1/assets/images/not-an-id', { key: host.apiKey });
    expect(unknown.status).toBe(404);
    expect(malformed.status).toBe(404);
  });
});

describe('GET /v1/assets/images', () => {
  it('lists newest first, pages with page/pageSize and never lists another workspace\'s images', async () => {
    // Prepare: a fresh workspace with three images
    const owner = await api.newWorkspace('Images list');
    const ids: string[] = [];
    for (const size of [1, 2, 3]) ids.push((await upload(owner, solidPng(size, size), 'image/png')).body.data.id);
    await upload(other, solidPng(1, 1), 'image/png');
    // Registered one after the other (often within one second): newest first is reverse registration order.
    const newestFirst = [...ids].reverse();
    // Act
    const first = await api.request('GET', '/v1/assets/images?pageSize=2', { key: owner.apiKey });
    const second = await api.request('GET', '/v1/assets/images/?page=1&pageSize=2', { key: owner.apiKey });
    const all = await api.request('GET', '/v1/assets/images', { key: owner.apiKey });
    // Assess
    expect(first.status).toBe(200);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.data.map((image: { id: string }) => image.id)).toEqual(newestFirst.slice(0, 2));
    expect(second.body).toEqual({ hasMore: false, data: [expect.objectContaining({ id: newestFirst[2] })], nextCursor: null });
    expect(all.body.data).toHaveLength(3);
    expect(all.body.data[0]).toEqual(expect.objectContaining({ hostId: owner.workspaceId, lastPublishedAt: null, purpose: 'content' }));
  });

  it('returns an empty page for a workspace without images', async () => {
    const empty = await api.newWorkspace('No images');
    const response = await api.request('GET', '/v1/assets/images', { key: empty.apiKey });
    expect(response.body).toEqual({ hasMore: false, data: [], nextCursor: null });
  });

  it.each([
    ['pageSize=0', 'pageSize'],
    ['pageSize=251', 'pageSize'],
    ['pageSize=abc', 'pageSize'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
  ])('is 422 validation_failed for %s', async (query, path) => {
    const response = await api.request('GET', `/v1/assets/images?${query}`, { key: host.apiKey });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ path })] });
  });

  it('reads only the items of the page asked for, not the whole collection', async () => {
    // Prepare
    const owner = await api.newWorkspace('Images cost');
    for (let index = 0; index < 5; index += 1) await upload(owner, solidPng(1, 1), 'image/png');
    // Act
    const response = await api.request('GET', '/v1/assets/images?pageSize=1', { key: owner.apiKey });
    // Assess: one item for the page plus one to know hasMore
    expect(response.headers.get('x-db-stats')).toMatch(/;items=2$/);
  });

  it('accepts the bounds pageSize=1 and pageSize=250', async () => {
    const low = await api.request('GET', '/v1/assets/images?pageSize=1', { key: host.apiKey });
    const high = await api.request('GET', '/v1/assets/images?pageSize=250', { key: host.apiKey });
    expect(low.status).toBe(200);
    expect(low.body.data).toHaveLength(1);
    expect(high.status).toBe(200);
  });
});
