import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner } from '../../shared/partners/partners-repository.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { dbStats } from './support/db-stats.js';

/*
 * Input hygiene end to end (API.md "Round trips and references"): empty bodies, NUL and lone
 * surrogates, date-time offsets, references. The table-driven sweep of every write route is
 * hostile-inputs.test.ts.
 */

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Input hygiene');
});
afterAll(async () => api.close());

type Json = Record<string, unknown>;

async function call(method: string, path: string, body?: unknown) {
  const response = await api.request(method, path, { key: workspace.apiKey, ...(body === undefined ? {} : { body }) });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
  return response.body?.data;
}

/** Sends a JSON text as is: escapes such as `\ud800` reach the server as written. */
function sendJson(method: string, path: string, json: string, key: string | undefined = workspace.apiKey) {
  return api.request(method, path, { ...(key ? { key } : {}), raw: json, headers: { 'content-type': 'application/json' } });
}

const eventBody = (overrides: Json = {}) => ({ name: 'Gala', start: '2030-06-01T18:00:00Z', end: '2030-06-01T23:00:00Z', ...overrides });

describe('empty bodies', () => {
  it('answers a PATCH with an empty body with 400 invalid_json and changes nothing', async () => {
    // Prepare
    const contact = await call('POST', '/v1/contacts', { email: 'empty.patch@example.com', firstName: 'Ada' });
    // Act
    const response = await api.request('PATCH', `/v1/contacts/${contact.id}`, { key: workspace.apiKey, headers: { 'content-type': 'application/json' } });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
    expect(await call('GET', `/v1/contacts/${contact.id}`)).toEqual(contact);
  });

  it('answers a POST with an empty body with 400 invalid_json', async () => {
    const response = await api.request('POST', '/v1/forms', { key: workspace.apiKey });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
  });
});

describe('NUL characters and lone surrogates', () => {
  it.each([
    ['a NUL', '"Ada\\u0000Lovelace"'],
    ['a lone high surrogate', '"Ada\\ud83d"'],
    ['a lone low surrogate', '"\\ude00Ada"'],
  ])('refuses a contact name holding %s with 422 on firstName, storing nothing', async (_label, name) => {
    // Act
    const response = await sendJson('POST', '/v1/contacts', `{"email": "nul.${name.length}@example.com", "firstName": ${name}}`);
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'validation_failed', details: [{ path: 'firstName' }] });
    const list = await call('GET', '/v1/contacts?email=' + encodeURIComponent(`nul.${name.length}@example.com`));
    expect(list).toEqual([]);
  });

  it('refuses them in free-form maps too (event location), on the nested path', async () => {
    const response = await sendJson('POST', '/v1/events', JSON.stringify(eventBody({ location: { venue: { name: 'Hall' } } })).replace('Hall', 'Ha\\u0000ll'));
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: 'location.venue.name', message: expect.stringMatching(/NUL/) }]);
  });

  it('refuses them on public form submissions', async () => {
    // Prepare
    const form = await call('POST', '/v1/forms', { name: 'Public', type: 'standalone', status: 'active' });
    const element = await call('POST', `/v1/forms/${form.id}/elements`, { type: 'Text', prompt: 'Name' });
    // Act
    const response = await sendJson('POST', `/forms/${form.id}/responses`, `{"answers": {"${element.id}": "Bob\\udfff"}}`, undefined);
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: `answers.${element.id}`, message: expect.stringMatching(/lone surrogate/) }]);
  });

  it('keeps emoji (well-formed surrogate pairs)', async () => {
    const contact = await call('POST', '/v1/contacts', { email: 'emoji@example.com', firstName: 'Ada \u{1F389}' });
    expect((await call('GET', `/v1/contacts/${contact.id}`)).firstName).toBe('Ada \u{1F389}');
  });
});

describe('date-times with offsets', () => {
  it('stores and returns an offset start as the same instant in UTC', async () => {
    // Act
    const created = await call('POST', '/v1/events', eventBody({ start: '2030-06-01T18:00:00+02:00', end: '2030-06-01T23:30:00-04:00' }));
    // Assess
    expect(created).toMatchObject({ start: '2030-06-01T16:00:00Z', end: '2030-06-02T03:30:00Z' });
    expect(await call('GET', `/v1/events/${created.id}`)).toMatchObject({ start: '2030-06-01T16:00:00Z', end: '2030-06-02T03:30:00Z' });
  });

  it('normalises offsets on updates too', async () => {
    const created = await call('POST', '/v1/events', eventBody());
    const updated = await call('PATCH', `/v1/events/${created.id}`, { end: '2030-06-02T01:00:00+01:00' });
    expect(updated.end).toBe('2030-06-02T00:00:00Z');
  });

  it('answers a malformed date-time with 422 naming ISO 8601 and giving an example', async () => {
    const response = await api.request('POST', '/v1/events', { key: workspace.apiKey, body: eventBody({ start: '2030-06-01 18:00' }) });
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: 'start', message: expect.stringMatching(/ISO 8601.*2027-06-01T18:00:00Z/) }]);
  });
});

describe('references', () => {
  const invoiceBody = (customerId: string, lines: Json[]) => ({ customerId, currency: 'USD', lineItems: lines });
  const line = (overrides: Json = {}) => ({ description: 'Ticket', quantity: 1, unitAmount: 1_000, ...overrides });

  it('refuses an event whose referral_code no partner holds, and takes one that a partner holds', async () => {
    // Prepare
    const code = `hyg${Date.now().toString(36)}`;
    await createPartner({ referral_code: code, companyName: 'Hygiene partner' });
    // Act
    const unknown = await api.request('POST', '/v1/events', { key: workspace.apiKey, body: eventBody({ referral_code: `${code}x` }) });
    const known = await api.request('POST', '/v1/events', { key: workspace.apiKey, body: eventBody({ referral_code: code }) });
    const relinked = await api.request('PATCH', `/v1/events/${known.body.data.id}`, { key: workspace.apiKey, body: { referral_code: 'nobody-has-this-code' } });
    // Assess
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toEqual([{ path: 'referral_code', message: expect.stringMatching(/partner/) }]);
    expect(known.status).toBe(201);
    expect(relinked.status).toBe(422);
    expect(relinked.body.error.details[0].path).toBe('referral_code');
    expect((await call('GET', `/v1/events/${known.body.data.id}`)).referral_code).toBe(code);
  });

  it('refuses invoice lines whose eventId is not an event of the workspace, naming each line', async () => {
    // Prepare
    const other = await api.newWorkspace('References other');
    const foreign = (await api.request('POST', '/v1/events', { key: other.apiKey, body: eventBody() })).body.data.id;
    const mine = await call('POST', '/v1/events', eventBody());
    const contact = await call('POST', '/v1/contacts', { email: 'refs.invoice@example.com' });
    // Act
    const response = await api.request('POST', '/v1/invoices', {
      key: workspace.apiKey,
      body: invoiceBody(contact.id, [line({ eventId: mine.id }), line({ eventId: foreign }), line({ eventId: 'evt-made-up' })]),
    });
    const accepted = await api.request('POST', '/v1/invoices', { key: workspace.apiKey, body: invoiceBody(contact.id, [line({ eventId: mine.id })]) });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([
      { path: 'lineItems[1].eventId', message: 'must be the id of an event of this workspace' },
      { path: 'lineItems[2].eventId', message: 'must be the id of an event of this workspace' },
    ]);
    expect(accepted.status).toBe(201);
  });

  it('reports an unknown line eventId and an unknown customer together', async () => {
    const response = await api.request('POST', '/v1/invoices', {
      key: workspace.apiKey, body: invoiceBody('6740f1a2c3d4e5f601234567', [line({ eventId: '6740f1a2c3d4e5f601234568' })]),
    });
    expect(response.status).toBe(422);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['customerId', 'lineItems[0].eventId']);
  });

  it('checks a revised invoice\'s references before its state: 422 on eventId, not 409, for a finalized invoice', async () => {
    // Prepare
    const contact = await call('POST', '/v1/contacts', { email: 'refs.revise@example.com' });
    const invoice = await call('POST', '/v1/invoices', invoiceBody(contact.id, [line()]));
    await call('POST', `/v1/invoices/${invoice.id}/finalize`);
    // Act
    const response = await api.request('PATCH', `/v1/invoices/${invoice.id}`, { key: workspace.apiKey, body: { lineItems: [line({ eventId: 'evt-made-up' })] } });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: 'lineItems[0].eventId', message: expect.any(String) }]);
  });

  it('reports an unknown payout eventId on eventId, with one key read and before any balance is read or written', async () => {
    // Prepare: another workspace's event, and no money at all (a balance check would say "amount")
    const other = await api.newWorkspace('References payout other');
    const foreign = (await api.request('POST', '/v1/events', { key: other.apiKey, body: eventBody() })).body.data.id;
    // Act
    const response = await api.request('POST', '/v1/payouts', { key: workspace.apiKey, body: { currency: 'USD', amount: 500, eventId: foreign } });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: 'eventId', message: 'must be the id of an event of this workspace' }]);
    expect(dbStats(response)).toMatchObject({ calls: 1, wcu: 0 });
  });
});

describe('image dimensions', () => {
  /** A PNG signature and IHDR (CRC correct) claiming `width` x `height`, then IEND: a header any reader accepts. */
  function claimedPng(width: number, height: number): Buffer {
    const chunk = (type: string, data: Buffer) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
      return Buffer.concat([length, Buffer.from(type), data, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(width, 0);
    ihdr.writeUInt32BE(height, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IEND', Buffer.alloc(0))]);
  }
  const register = (bytes: Buffer) => api.request('POST', '/v1/assets/images?filename=claim.png', { key: workspace.apiKey, raw: bytes, headers: { 'content-type': 'image/png' } });

  it('refuses an image whose header claims 2147483647x2147483647, registering nothing', async () => {
    // Act
    const response = await register(claimedPng(2_147_483_647, 2_147_483_647));
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ path: 'body', message: expect.stringMatching(/limited to 16384 pixels/) }]);
    expect((await api.request('GET', '/v1/assets/images', { key: workspace.apiKey })).body.data).toEqual([]);
  });

  it('refuses a header whose CRC does not match, and registers a sound one with its dimensions', async () => {
    const tampered = claimedPng(64, 48);
    tampered.writeUInt32BE(6_400, 16);
    expect((await register(tampered)).status).toBe(422);
    const sound = await register(claimedPng(64, 48));
    expect(sound.status).toBe(201);
    expect(sound.body.data).toMatchObject({ width: 64, height: 48 });
  });
});
