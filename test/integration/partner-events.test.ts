import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../shared/openapi/document.js';
import { createPartner } from '../../shared/partners/partners-repository.js';
import { answerViolations } from '../support/documented-schema.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let host: TestWorkspace;
let otherHost: TestWorkspace;
let code: string;

const uniqueCode = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;
const DAY = 86_400_000;
const at = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString();

interface EventOptions {
  name: string;
  startDays: number;
  endDays?: number;
  referral_code?: string;
  status?: 'draft' | 'published';
  visibility?: 'public' | 'private';
  metaData?: Record<string, string>;
}

async function createEvent(workspace: TestWorkspace, options: EventOptions) {
  const { startDays, endDays = startDays + 1, ...rest } = options;
  const response = await api.request('POST', '/v1/events', {
    key: workspace.apiKey,
    body: { status: 'published', visibility: 'public', referral_code: code, start: at(startDays), end: at(endDays), ...rest },
  });
  expect(response.status).toBe(201);
  return response.body.data;
}

const listing = (query: string) => api.request('GET', `/partner/events?${query}`, { headers: { Origin: 'https://widget.example' } });
const names = (body: { data: { name: string }[] }) => body.data.map((event) => event.name);

beforeAll(async () => {
  api = await startApi();
  host = await api.newWorkspace('Partner host');
  otherHost = await api.newWorkspace('Partner other host');
  code = uniqueCode('PARTNER');
  await createPartner({ referral_code: code, firstName: 'Pat', lastName: 'Ner', companyName: 'Widgets Inc', email: 'pat@example.com' });
  // Past, ongoing (started, not ended) and future events, plus ones that must never be listed.
  await createEvent(host, { name: 'Past', startDays: -10, endDays: -9, metaData: { city: 'Montreal' } });
  await createEvent(host, { name: 'Ongoing', startDays: -1, endDays: 20, metaData: { city: 'Toronto' } });
  await createEvent(otherHost, { name: 'Soon', startDays: 2, endDays: 3, metaData: { city: 'Montreal', venue: 'Hall' } });
  await createEvent(host, { name: 'Later', startDays: 5, endDays: 6 });
  await createEvent(host, { name: 'Draft', startDays: 4, status: 'draft' });
  await createEvent(host, { name: 'Private', startDays: 4, visibility: 'private' });
  // Linked to another partner (referral codes must name a partner).
  const otherCode = uniqueCode('OTHER');
  await createPartner({ referral_code: otherCode, companyName: 'Other partner' });
  await createEvent(host, { name: 'Unlinked', startDays: 4, referral_code: otherCode });
}, 60_000);
afterAll(async () => api.close());

describe('GET /partner/events', () => {
  it('lists only published public events of the partner, across workspaces, sorted by start with the owner', async () => {
    // Act
    const response = await listing(`referral_code=${code}`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 200, total: 4, page: 0, limit: 20, hasMore: false, message: expect.any(String) });
    expect(names(response.body)).toEqual(['Past', 'Ongoing', 'Soon', 'Later']);
    expect(response.body.error).toBeUndefined();
    const [first] = response.body.data;
    expect(first).toMatchObject({ referral_code: code, minPrice: 0, maxPrice: 0, status: 'published' });
    expect(first.owner).toEqual({ _id: expect.stringMatching(/^[a-f0-9]{24}$/), referral_code: code, firstName: 'Pat', lastName: 'Ner', companyName: 'Widgets Inc', email: 'pat@example.com' });
    expect(first).not.toHaveProperty('workspaceId');
    expect(first).not.toHaveProperty('GSI1PK');
  });

  it('sends CORS and a short Cache-Control on success', async () => {
    const response = await listing(`referral_code=${code}`);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('public, max-age=30');
  });

  it('sorts by end and createdAt in both directions', async () => {
    const byEndDesc = await listing(`referral_code=${code}&sort=end&direction=desc`);
    const byCreated = await listing(`referral_code=${code}&sort=createdAt`);
    expect(names(byEndDesc.body)).toEqual(['Ongoing', 'Later', 'Soon', 'Past']);
    expect(names(byCreated.body)).toEqual(['Past', 'Ongoing', 'Soon', 'Later']);
  });

  it('filters upcoming (end in the future) and past, for every sort', async () => {
    for (const sort of ['start', 'end', 'createdAt']) {
      const upcoming = await listing(`referral_code=${code}&filter=upcoming&sort=${sort}`);
      const past = await listing(`referral_code=${code}&filter=past&sort=${sort}`);
      expect(new Set(names(upcoming.body)), sort).toEqual(new Set(['Ongoing', 'Soon', 'Later']));
      expect(names(past.body), sort).toEqual(['Past']);
    }
  });

  it('treats any other query key as a metaData equality filter', async () => {
    const montreal = await listing(`referral_code=${code}&city=Montreal`);
    const both = await listing(`referral_code=${code}&city=Montreal&venue=Hall`);
    expect(names(montreal.body)).toEqual(['Past', 'Soon']);
    expect(names(both.body)).toEqual(['Soon']);
  });

  it('paginates with hasMore and total = events on the page', async () => {
    const first = await listing(`referral_code=${code}&limit=3`);
    const second = await listing(`referral_code=${code}&limit=3&page=1`);
    expect(first.body).toMatchObject({ total: 3, limit: 3, page: 0, hasMore: true });
    expect(second.body).toMatchObject({ total: 1, page: 1, hasMore: false });
    expect(names(second.body)).toEqual(['Later']);
  });

  it('clamps limit above 100 to 100', async () => {
    const response = await listing(`referral_code=${code}&limit=500`);
    expect(response.status).toBe(200);
    expect(response.body.limit).toBe(100);
  });

  it('follows publishing, unpublishing and referral code changes', async () => {
    // Prepare
    const event = await createEvent(host, { name: 'Flip', startDays: 30, status: 'draft' });
    // Act
    await api.request('PATCH', `/v1/events/${event.id}`, { key: host.apiKey, body: { status: 'published' } });
    const published = await listing(`referral_code=${code}&sort=start&direction=desc&limit=1`);
    await api.request('PATCH', `/v1/events/${event.id}`, { key: host.apiKey, body: { visibility: 'private' } });
    const hidden = await listing(`referral_code=${code}&sort=start&direction=desc&limit=1`);
    // Assess
    expect(names(published.body)).toEqual(['Flip']);
    expect(names(hidden.body)).toEqual(['Later']);
  });

  it('is 400 REFERRAL_CODE_REQUIRED without a code, with CORS', async () => {
    for (const query of ['', 'referral_code=', 'page=1']) {
      const response = await listing(query);
      expect(response.status, query).toBe(400);
      expect(response.body).toEqual({ status: 400, error: 'REFERRAL_CODE_REQUIRED', message: expect.stringMatching(/referral code/i) });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('is 404 PARTNER_NOT_FOUND naming the code', async () => {
    const unknown = uniqueCode('GHOST');
    const response = await listing(`referral_code=${unknown}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ status: 404, error: 'PARTNER_NOT_FOUND', message: expect.stringContaining(unknown) });
    expect(answerViolations(openApiDocument() as unknown as Record<string, unknown>, '/partner/events', 'GET', 404, response.body)).toEqual([]);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('is 404 NO_EVENTS_FOUND with the spec\'s pagination fields (page 0, limit 20, whatever was asked) when nothing matches', async () => {
    const response = await listing(`referral_code=${code}&city=Nowhere`);
    const paged = await listing(`referral_code=${code}&city=Nowhere&page=2&limit=5`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      data: [], status: 404, error: 'NO_EVENTS_FOUND', message: expect.any(String), total: 0, page: 0, limit: 20, hasMore: false,
    });
    expect(paged.body).toEqual(response.body);
    // The document's 404 holds exactly this body (its own fields), not only the flat error's.
    expect(answerViolations(openApiDocument() as unknown as Record<string, unknown>, '/partner/events', 'GET', 404, response.body)).toEqual([]);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('is 400 INVALID_QUERY for malformed page, limit, sort, direction or filter', async () => {
    // A parameter given twice (a metaData filter too) is refused rather than read as its last value.
    for (const query of ['page=-1', 'page=abc', 'limit=0', 'limit=2.5', 'sort=name', 'direction=up', 'filter=soon', 'limit=5&limit=10', 'city=Montreal&city=Toronto']) {
      const response = await listing(`referral_code=${code}&${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toEqual({ status: 400, error: 'INVALID_QUERY', message: expect.any(String) });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('is 400 INVALID_QUERY naming an empty page, limit, sort, direction, filter or cursor', async () => {
    for (const name of ['page', 'limit', 'sort', 'direction', 'filter', 'cursor']) {
      const response = await listing(`referral_code=${code}&${name}=`);
      expect(response.status, name).toBe(400);
      expect(response.body, name).toEqual({ status: 400, error: 'INVALID_QUERY', message: expect.stringContaining(`parameter ${name}: must not be empty`) });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('answers the CORS preflight', async () => {
    const response = await api.request('OPTIONS', '/partner/events', {
      headers: { Origin: 'https://widget.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('GET');
  });
});

describe('GET /partner/events read cost', () => {
  const itemsRead = (header: string | null) => Number(/items=(\d+)/.exec(header ?? '')?.[1]);
  let big: string;
  let small: string;

  beforeAll(async () => {
    big = uniqueCode('BIG');
    small = uniqueCode('SMALL');
    await createPartner({ referral_code: big });
    await createPartner({ referral_code: small });
    const workspace = await api.newWorkspace('Capacity');
    // Upcoming events first, then past ones: past events sort before upcoming ones by start.
    for (const sign of [1, -1]) {
      for (let index = 0; index < 30; index += 1) {
        await createEvent(workspace, { name: `Big ${sign * (index + 1)}`, startDays: sign * (index + 2), referral_code: big });
        if (index < 5) await createEvent(workspace, { name: `Small ${sign * (index + 1)}`, startDays: sign * (index + 2), referral_code: small });
      }
    }
  }, 120_000);

  const combinations = ['start', 'end', 'createdAt'].flatMap((sort) => ['asc', 'desc'].flatMap((direction) =>
    ['all', 'upcoming', 'past'].map((filter) => `&sort=${sort}&direction=${direction}&filter=${filter}`)));

  it.each(combinations)('reads about the same for page 0 limit 5 with 60 events as with 10 (%s)', async (query) => {
    // Act
    const bigPage = await listing(`referral_code=${big}&limit=5${query}`);
    const smallPage = await listing(`referral_code=${small}&limit=5${query}`);
    // Assess
    expect(bigPage.body.total).toBe(5);
    expect(bigPage.body.hasMore).toBe(true);
    const bigItems = itemsRead(bigPage.headers.get('x-db-stats'));
    const smallItems = itemsRead(smallPage.headers.get('x-db-stats'));
    // Partner lookup (1) + the page (5) + the hasMore probe (1), never the other events.
    expect(bigItems).toBeLessThanOrEqual(7);
    expect(bigItems - smallItems).toBeLessThanOrEqual(1);
  });

  it('costs reads proportional to the page depth', async () => {
    const deep = await listing(`referral_code=${big}&limit=5&page=3`);
    expect(deep.body.total).toBe(5);
    expect(itemsRead(deep.headers.get('x-db-stats'))).toBeLessThanOrEqual(1 + 4 * 5 + 1);
  });

  it('is 400 INVALID_QUERY for a page 10000 events deep', async () => {
    const response = await listing(`referral_code=${big}&limit=100&page=100`);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('INVALID_QUERY');
  });
});
