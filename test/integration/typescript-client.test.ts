import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BoxofficeApiError, createBoxofficeClient, unwrap, type BoxofficeClient, type ErrorCode } from '../../clients/typescript/src/index.js';
import { solidPng } from '../../shared/images/sample-images.js';
import { createPartner } from '../../shared/partners/partners-repository.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Typed client');
});
afterAll(async () => api.close());

/** What went over the wire: method, path and Idempotency-Key of every request the client sent. */
interface Sent {
  method: string;
  path: string;
  idempotencyKey: string | null;
}

function recordingClient(options: { loseFirstAnswerOf?: string } = {}): { client: BoxofficeClient; sent: Sent[] } {
  const sent: Sent[] = [];
  let lost = false;
  const client = createBoxofficeClient({
    baseUrl: api.url,
    apiKey: workspace.apiKey,
    retry: { baseDelayMs: 1 },
    fetch: async (request) => {
      const path = new URL(request.url).pathname;
      sent.push({ method: request.method, path, idempotencyKey: request.headers.get('idempotency-key') });
      const response = await fetch(request);
      // The request reached the server and was applied; its answer is lost on the way back.
      if (!lost && `${request.method} ${path}` === options.loseFirstAnswerOf) {
        lost = true;
        throw new TypeError('fetch failed: connection reset');
      }
      return response;
    },
  });
  return { client, sent };
}

describe('the TypeScript client against the local server', () => {
  it('creates a form with elements, an event, and an invoice that is finalized, paid and shows in the balance', async () => {
    // Prepare
    const { client, sent } = recordingClient();

    // Act: every call is typed by the generated schema (paths, bodies, answers)
    const form = (await unwrap(client.POST('/v1/forms', { body: { name: 'Gala registration', type: 'standalone' } }))).data;
    const question = (await unwrap(client.POST('/v1/forms/{formId}/elements', {
      params: { path: { formId: form.id } },
      body: { type: 'Text', prompt: 'Your name', required: true },
    }))).data;
    const choice = (await unwrap(client.POST('/v1/forms/{formId}/elements', {
      params: { path: { formId: form.id } },
      body: { type: 'Select One', prompt: 'Dinner', options: ['Fish', 'Vegetarian'] },
    }))).data;
    const event = (await unwrap(client.POST('/v1/events', {
      body: {
        name: 'Summer gala', start: '2030-06-01T18:00:00Z', end: '2030-06-01T23:00:00Z',
        products: [{ name: 'General', price: 4_500, required: true }],
      },
    }))).data;
    const contact = (await unwrap(client.POST('/v1/contacts', { body: { email: 'ada@example.com', firstName: 'Ada' } }))).data;
    const draft = (await unwrap(client.POST('/v1/invoices', {
      body: { customerId: contact.id, currency: 'USD', lineItems: [{ description: 'Gala ticket', quantity: 2, unitAmount: 4_500, eventId: event.id }] },
    }))).data;
    const open = (await unwrap(client.POST('/v1/invoices/{invoiceId}/finalize', { params: { path: { invoiceId: draft.id } } }))).data;
    const payment = (await unwrap(client.POST('/v1/invoices/{invoiceId}/payments', {
      params: { path: { invoiceId: draft.id } },
      body: { amount: open.amountDue, idempotencyKey: 'cash-at-the-door-1' },
    }))).data;
    const paid = (await unwrap(client.GET('/v1/invoices/{invoiceId}', { params: { path: { invoiceId: draft.id } } }))).data;
    const balance = (await unwrap(client.GET('/v1/events/balance', { params: { query: { eventId: event.id } } }))).data;
    const readBack = (await unwrap(client.GET('/v1/forms/{formId}', { params: { path: { formId: form.id } } }))).data;

    // Assess
    expect(readBack.elements.map((element) => element.id)).toEqual([question.id, choice.id]);
    expect(open).toMatchObject({ status: 'open', total: 9_000, amountDue: 9_000 });
    expect(payment).toMatchObject({ amount: 9_000, status: 'succeeded' });
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 9_000, amountDue: 0 });
    expect(balance).toHaveLength(1);
    expect(balance[0]?.currency).toBe('USD');
    const { pending_balance: pending, available_balance: available } = balance[0] ?? {};
    expect((pending?.gross ?? 0) + (available?.gross ?? 0)).toBe(9_000);
    // Every POST carried its own Idempotency-Key, minted by the client; no other method carried one.
    const posts = sent.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(8);
    expect(posts.every((request) => request.idempotencyKey !== null && request.idempotencyKey.length > 0)).toBe(true);
    expect(new Set(posts.map((request) => request.idempotencyKey)).size).toBe(posts.length);
    expect(sent.filter((request) => request.method !== 'POST').every((request) => request.idempotencyKey === null)).toBe(true);
  });

  it('registers an image from its bytes and filters the partner listing by metaData, as a partner site would', async () => {
    // Prepare
    const { client } = recordingClient();
    const code = `client-${Date.now()}`;
    await createPartner({ referral_code: code, companyName: 'Client Partners' });
    const png = solidPng(3, 2);

    // Act
    const image = (await unwrap(client.POST('/v1/assets/images', { params: { query: { filename: 'poster.png' } }, body: new Uint8Array(png), headers: { 'Content-Type': 'image/png' } }))).data;
    const at = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    for (const city of ['Montreal', 'Toronto']) {
      await unwrap(client.POST('/v1/events', {
        body: { name: `Gala in ${city}`, start: at(10), end: at(11), status: 'published', visibility: 'public', referral_code: code, metaData: { city }, images: [image.id] },
      }));
    }
    const listing = await unwrap(client.GET('/partner/events', { params: { query: { referral_code: code, metaData: { city: 'Montreal' } } } }));

    // Assess
    expect(image).toMatchObject({ width: 3, height: 2, contentType: 'image/png' });
    expect(listing.data.map((event) => event.name)).toEqual(['Gala in Montreal']);
    expect(listing.data[0]?.images).toEqual([image.url]);
  });

  it('repeats a POST whose answer was lost with the same Idempotency-Key, so the server applies it once', async () => {
    // Prepare
    const { client, sent } = recordingClient({ loseFirstAnswerOf: 'POST /v1/contacts' });
    const email = `once-${Date.now()}@example.com`;

    // Act
    const result = await client.POST('/v1/contacts', { body: { email } });

    // Assess
    expect(result.response.status).toBe(201);
    expect(result.response.headers.get('idempotent-replayed')).toBe('true');
    const attempts = sent.filter((request) => request.path === '/v1/contacts');
    expect(attempts).toHaveLength(2);
    expect(attempts[1]?.idempotencyKey).toBe(attempts[0]?.idempotencyKey);
    const listed = await unwrap(client.GET('/v1/contacts', { params: { query: { limit: 100 } } }));
    expect(listed.data.filter((contact) => contact.email === email)).toHaveLength(1);
  });

  it('answers errors with the typed envelope, and unwrap throws them with their code', async () => {
    // Prepare
    const { client } = recordingClient();

    // Act
    const invalid = await client.POST('/v1/forms', { body: { name: '', type: 'standalone' } });
    const missing = client.GET('/v1/invoices/{invoiceId}', { params: { path: { invoiceId: '6740f1a2c3d4e5f601234567' } } });
    const thrown = await unwrap(missing).catch((error: unknown) => error);

    // Assess
    expect(invalid.response.status).toBe(422);
    const code: ErrorCode | undefined = invalid.error?.error.code;
    expect(code).toBe('validation_failed');
    expect(invalid.error?.error.details).toContainEqual({ path: 'name', message: expect.any(String) });
    expect(thrown).toBeInstanceOf(BoxofficeApiError);
    expect(thrown).toMatchObject({ status: 404, code: 'not_found', requestId: expect.any(String) });
  });
});
