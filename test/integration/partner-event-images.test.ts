import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solidPng } from '../../shared/images/sample-images.js';
import { createPartner } from '../../shared/partners/partners-repository.js';
import { dbStats } from './support/db-stats.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

/**
 * `GET /partner/events` answers image asset ids as download URLs: partners have no key to resolve an
 * id, and each id is looked up only in the workspace of the event that holds it.
 */

let api: TestApi;
let host: TestWorkspace;
let otherHost: TestWorkspace;
const withAssets = `PICTURES-${randomBytes(4).toString('hex')}`;
const urlsOnly = `URLS-${randomBytes(4).toString('hex')}`;
const hostPng = solidPng(3, 2);
const otherPng = solidPng(2, 3);
let hostAsset: { id: string; url: string };
let otherAsset: { id: string; url: string };
const EXTERNAL = 'https://cdn.example.com/poster.png';
const NEVER_UPLOADED = '0123456789abcdef01234567';
const DAY = 86_400_000;
const at = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString();

async function uploadPng(workspace: TestWorkspace, png: Buffer) {
  const response = await api.request('POST', '/v1/assets/images?filename=cover.png', { key: workspace.apiKey, raw: png, headers: { 'content-type': 'image/png' } });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; url: string };
}

async function createEvent(workspace: TestWorkspace, referral: string, name: string, startDays: number, images: { image?: string[]; images?: string[] }) {
  const response = await api.request('POST', '/v1/events', {
    key: workspace.apiKey,
    body: { name, status: 'published', visibility: 'public', referral_code: referral, start: at(startDays), end: at(startDays + 1), metaData: { kind: 'poster' }, ...images },
  });
  expect(response.status).toBe(201);
}

const listing = (referral: string, filters = '') => api.request('GET', `/partner/events?referral_code=${referral}${filters}`);
const byName = (body: { data: { name: string; image?: string[]; images?: string[] }[] }) => new Map(body.data.map((event) => [event.name, event]));

beforeAll(async () => {
  api = await startApi();
  host = await api.newWorkspace('Pictured host');
  otherHost = await api.newWorkspace('Other pictured host');
  await createPartner({ referral_code: withAssets, companyName: 'Pictures' });
  await createPartner({ referral_code: urlsOnly, companyName: 'Urls' });
  hostAsset = await uploadPng(host, hostPng);
  otherAsset = await uploadPng(otherHost, otherPng);
  await createEvent(host, withAssets, 'Host event', 1, {
    image: [hostAsset.id, EXTERNAL, otherAsset.id],
    images: [NEVER_UPLOADED, hostAsset.id],
  });
  await createEvent(otherHost, withAssets, 'Other host event', 2, { image: [otherAsset.id, hostAsset.id] });
  await createEvent(host, urlsOnly, 'Url event', 1, { image: [EXTERNAL], images: [EXTERNAL] });
}, 60_000);
afterAll(async () => api.close());

describe('GET /partner/events image asset ids', () => {
  it('answers an asset id of the event\'s own workspace as the asset\'s download URL, keeps URLs, leaves other ids out', async () => {
    // Act
    const response = await listing(withAssets);
    // Assess
    expect(response.status).toBe(200);
    const events = byName(response.body);
    expect(events.get('Host event')?.image).toEqual([hostAsset.url, EXTERNAL]);
    expect(events.get('Host event')?.images).toEqual([hostAsset.url]);
    // Each event resolves in its own workspace: the same ids on one page, swapped roles.
    expect(events.get('Other host event')?.image).toEqual([otherAsset.url]);
    expect(JSON.stringify(response.body)).not.toContain(NEVER_UPLOADED);
    // The download URLs name no workspace (partners never see a workspace id).
    expect(JSON.stringify(response.body)).not.toContain(host.workspaceId);
    expect(JSON.stringify(response.body)).not.toContain(otherHost.workspaceId);
  });

  it('serves the image\'s bytes at that URL', async () => {
    const download = await fetch(hostAsset.url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(hostPng);
  });

  it('resolves the same way when the page is read through a metaData filter', async () => {
    const response = await listing(withAssets, '&kind=poster');
    const events = byName(response.body);
    expect(events.get('Host event')?.image).toEqual([hostAsset.url, EXTERNAL]);
    expect(events.get('Other host event')?.image).toEqual([otherAsset.url]);
  });

  it('answers a URL that downloads the uploaded image', async () => {
    const response = await listing(withAssets);
    const url = byName(response.body).get('Host event')?.image?.[0] as string;
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(hostPng)).toBe(true);
  });

  it('reads the page\'s asset ids in one BatchGet, and nothing more for a page of URLs only', async () => {
    // Act
    const pictured = dbStats(await listing(withAssets));
    const plain = await listing(urlsOnly);
    // Assess
    expect(byName(plain.body).get('Url event')).toMatchObject({ image: [EXTERNAL], images: [EXTERNAL] });
    // The same query shape (partner + one page Query); the asset ids add exactly one call.
    expect(pictured.calls).toBe(dbStats(plain).calls + 1);
  });
});
