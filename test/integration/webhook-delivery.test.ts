import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { queryAll } from '../../shared/db/query.js';
import { WEBHOOK_EVENT_TYPES, fromEventItem, webhookKeys, type WebhookEventRecord } from '../../shared/webhooks/webhook-model.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver.js';

/**
 * Webhook delivery end to end with the machinery `npm start` runs: DynamoDB Local's stream -> the
 * dispatcher -> the local queue -> the sender -> a real HTTP receiver on 127.0.0.1. The schedule is
 * compressed further (100 ms, 200 ms, ... 1.6 s) and the timeout is 1 s, so that eight attempts fit in
 * a test; the deployed values are unit-tested.
 */

let api: TestApi;
let receiver: WebhookReceiver;
const FAST = { baseMs: 100, factor: 2, capMs: 1_600, jitter: 0.2 };
const DAY = 24 * 60 * 60 * 1000;
const EVENT = { name: 'Launch party', start: '2030-06-01T18:00:00Z', end: '2030-06-01T23:00:00Z', products: [{ name: 'Entry', price: 2_000, required: true }] };

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  api = await startApi({ webhooks: { schedule: FAST, timeoutMs: 1_000 } });
});
afterAll(async () => {
  await api.close();
  await receiver.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function ok(response: Promise<{ status: number; body: Json; text: string }>, status = [200, 201, 202, 204]): Promise<Json> {
  const resolved = await response;
  if (!status.includes(resolved.status)) throw new Error(`unexpected ${resolved.status}: ${resolved.text}`);
  return resolved.body;
}

async function endpoint(ws: TestWorkspace, url: string, events: string[] = ['*']): Promise<{ id: string; secret: string }> {
  return (await ok(api.request('POST', '/v1/webhook-endpoints', { key: ws.apiKey, body: { url, events } }))).data;
}

async function contact(ws: TestWorkspace, defaultPaymentMethod?: string): Promise<string> {
  const body = { email: `wh-${Math.random().toString(16).slice(2)}@example.com`, ...(defaultPaymentMethod ? { defaultPaymentMethod } : {}) };
  return (await ok(api.request('POST', '/v1/contacts', { key: ws.apiKey, body }))).data.id;
}

async function invoice(ws: TestWorkspace, customerId: string, options: { total?: number; autoCharge?: boolean } = {}): Promise<string> {
  const body = { customerId, currency: 'USD', autoCharge: options.autoCharge ?? false, lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: options.total ?? 5_000 }] };
  return (await ok(api.request('POST', '/v1/invoices', { key: ws.apiKey, body }))).data.id;
}

/** An active public form whose Email question fills the contact: its id and the question's. */
async function signupForm(ws: TestWorkspace): Promise<{ formId: string; emailId: string }> {
  const form = (await ok(api.request('POST', '/v1/forms', { key: ws.apiKey, body: { name: 'Signup', type: 'standalone', status: 'active' } }))).data;
  const email = (await ok(api.request('POST', `/v1/forms/${form.id}/elements`, { key: ws.apiKey, body: { type: 'Email', prompt: 'Email', required: true, contactField: 'email' } }))).data;
  return { formId: form.id, emailId: email.id };
}

const submit = (formId: string, answers: Json) => api.request('POST', `/forms/${formId}/responses`, { body: { answers } });

const finalize = (ws: TestWorkspace, id: string) => api.request('POST', `/v1/invoices/${id}/finalize`, { key: ws.apiKey });
/** A manual payment received 3 days ago: settled already, so payouts can spend it. */
const pay = (ws: TestWorkspace, id: string, amount: number) => api.request('POST', `/v1/invoices/${id}/payments`, {
  key: ws.apiKey, body: { amount, idempotencyKey: `pay-${Math.random()}`, paidAt: new Date(Date.now() - 3 * DAY).toISOString() },
});

/**
 * A payment as a client following the contract makes it: a 503 (nothing written: a lost race on the
 * ledger, or the time budget on a loaded machine) is sent again with the same idempotency key after
 * its `Retry-After`.
 */
async function payAsClient(ws: TestWorkspace, id: string, amount: number) {
  const body = { amount, idempotencyKey: `pay-${Math.random()}`, paidAt: new Date(Date.now() - 3 * DAY).toISOString() };
  for (let attempt = 1; ; attempt += 1) {
    const response = await api.request('POST', `/v1/invoices/${id}/payments`, { key: ws.apiKey, body });
    if (response.status !== 503 || attempt === 5) return response;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** The outbox events of a workspace, read from the table. */
async function outbox(ws: TestWorkspace): Promise<WebhookEventRecord[]> {
  return (await queryAll({ partition: webhookKeys.eventPartition(ws.workspaceId) })).map(fromEventItem);
}

const bodyOf = (request: ReceivedWebhook) => JSON.parse(request.body) as { id: string; type: string; timestamp: string; data: { object: Json } };
const deliveriesOf = async (ws: TestWorkspace, endpointId: string) => (await ok(api.request('GET', `/v1/webhook-endpoints/${endpointId}/deliveries`, { key: ws.apiKey }))).data as Json[];

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 25_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('webhook delivery', () => {
  it('delivers every event type of the contract once, signed so that Webhook.verify accepts it', async () => {
    // Prepare
    const ws = await api.newWorkspace('Webhooks: every type');
    const form = await signupForm(ws);
    const path = `/all-${ws.workspaceId}`;
    const hook = await endpoint(ws, receiver.script(path, 200));
    const verifier = new Webhook(hook.secret);
    // Act: each change below announces its events
    const customerId = await contact(ws);
    const paidId = await invoice(ws, customerId);
    await ok(finalize(ws, paidId));
    const payment = (await ok(pay(ws, paidId, 5_000))).data;
    const refund = (await ok(api.request('POST', `/v1/invoices/${paidId}/payments/${payment.id}/refunds`, { key: ws.apiKey, body: { amount: 1_000, idempotencyKey: 'r1' } }))).data;
    const payout = (await ok(api.request('POST', '/v1/payouts', { key: ws.apiKey, body: { currency: 'USD', amount: 500 } }))).data;
    const declinedId = await invoice(ws, await contact(ws, 'pm_card_chargeDeclined'), { autoCharge: true });
    await ok(finalize(ws, declinedId));
    const voidedId = await invoice(ws, await contact(ws));
    await ok(api.request('POST', `/v1/invoices/${voidedId}/void`, { key: ws.apiKey }));
    const publishedId = (await ok(api.request('POST', '/v1/events', { key: ws.apiKey, body: { ...EVENT, status: 'published' } }))).data.id;
    const submitted = (await ok(submit(form.formId, { [form.emailId]: 'Form.Filler@example.com' }))).data;
    const expected = [
      'invoice.finalized', 'invoice.paid', 'refund.created', 'payout.created', 'invoice.finalized', 'invoice.payment_failed', 'invoice.voided', 'event.published',
      // One per contact created by the API (three customers), and one for the contact the form submission created.
      'contact.created', 'contact.created', 'contact.created', 'contact.created', 'form_response.created',
    ];
    await receiver.until((all) => all.filter((request) => request.path === path).length >= expected.length);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // anything extra (a duplicate) would arrive by now
    // Assess
    const requests = receiver.at(path);
    const bodies = requests.map((request) => verifier.verify(request.body, request.headers as Record<string, string>) as Json);
    expect(bodies.map((body) => body.type).sort()).toEqual([...expected].sort());
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(expected.length);
    for (const request of requests) {
      const body = bodyOf(request);
      expect(request.headers['webhook-id']).toBe(body.id);
      expect(request.headers['content-type']).toBe('application/json');
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(body.timestamp).toMatch(/Z$/);
    }
    const byType = (type: string) => bodies.filter((body) => body.type === type).map((body) => body.data.object);
    const paidInvoice = (await ok(api.request('GET', `/v1/invoices/${paidId}`, { key: ws.apiKey }))).data;
    // The invoice as it was when paid (the refund changed it since): one version before the current one.
    const { payments: paidPayments, ...paidFields } = paidInvoice;
    expect(byType('invoice.paid')).toEqual([{
      ...paidFields, amountRefunded: 0, version: paidInvoice.version - 1, updatedAt: expect.any(String),
      payments: [{ ...paidPayments[0], refunds: [], amountRefunded: 0 }],
    }]);
    expect(byType('refund.created')).toEqual([refund]);
    expect(paidInvoice.payments[0].refunds).toEqual([refund]);
    expect(byType('payout.created')).toEqual([(await ok(api.request('GET', `/v1/payouts/${payout.id}`, { key: ws.apiKey }))).data]);
    expect(byType('invoice.voided')).toEqual([(await ok(api.request('GET', `/v1/invoices/${voidedId}`, { key: ws.apiKey }))).data]);
    expect(byType('invoice.payment_failed')).toEqual([(await ok(api.request('GET', `/v1/invoices/${declinedId}`, { key: ws.apiKey }))).data]);
    expect(byType('event.published')).toEqual([(await ok(api.request('GET', `/v1/events/${publishedId}`, { key: ws.apiKey }))).data]);
    expect(byType('form_response.created')).toEqual([(await ok(api.request('GET', `/v1/forms/${form.formId}/responses/${submitted.id}`, { key: ws.apiKey }))).data]);
    const contactIds = [customerId, submitted.contactId];
    const contacts = await Promise.all(contactIds.map(async (id) => (await ok(api.request('GET', `/v1/contacts/${id}`, { key: ws.apiKey }))).data));
    expect(byType('contact.created').filter((object) => contactIds.includes(object.id))).toEqual(expect.arrayContaining(contacts));
    expect(new Set(byType('contact.created').map((object) => object.id)).size).toBe(4);
    expect(WEBHOOK_EVENT_TYPES.filter((type) => !expected.includes(type))).toEqual([]);
  });

  it('delivers to each endpoint only the types it subscribed to, and nothing to a disabled endpoint', async () => {
    // Prepare
    const ws = await api.newWorkspace('Webhooks: subscriptions');
    const refundsOnly = receiver.script(`/refunds-${ws.workspaceId}`, 200);
    const disabled = receiver.script(`/disabled-${ws.workspaceId}`, 200);
    const all = receiver.script(`/every-${ws.workspaceId}`, 200);
    await endpoint(ws, refundsOnly, ['refund.created']);
    const off = await endpoint(ws, disabled, ['*']);
    await ok(api.request('PATCH', `/v1/webhook-endpoints/${off.id}`, { key: ws.apiKey, body: { status: 'disabled' } }));
    await endpoint(ws, all, ['*']);
    // Act
    const id = await invoice(ws, await contact(ws));
    await ok(finalize(ws, id));
    const payment = (await ok(pay(ws, id, 5_000))).data;
    await ok(api.request('POST', `/v1/invoices/${id}/payments/${payment.id}/refunds`, { key: ws.apiKey, body: { amount: 100, idempotencyKey: 'r' } }));
    await receiver.until(() => receiver.at(`/every-${ws.workspaceId}`).length >= 4 && receiver.at(`/refunds-${ws.workspaceId}`).length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 800));
    // Assess
    expect(receiver.at(`/refunds-${ws.workspaceId}`).map((request) => bodyOf(request).type)).toEqual(['refund.created']);
    expect(receiver.at(`/every-${ws.workspaceId}`).map((request) => bodyOf(request).type).sort()).toEqual(['contact.created', 'invoice.finalized', 'invoice.paid', 'refund.created']);
    expect(receiver.at(`/disabled-${ws.workspaceId}`)).toEqual([]);
  });

  it('retries a receiver that answers 500 twice: 3 attempts, then succeeded', async () => {
    // Prepare
    const ws = await api.newWorkspace('Webhooks: flaky');
    const path = `/flaky-${ws.workspaceId}`;
    const hook = await endpoint(ws, receiver.script(path, 500, 500, 200), ['invoice.voided']);
    // Act
    await ok(api.request('POST', `/v1/invoices/${await invoice(ws, await contact(ws))}/void`, { key: ws.apiKey }));
    const [delivery] = await until(() => deliveriesOf(ws, hook.id), (list) => list[0]?.status === 'succeeded');
    // Assess
    const requests = receiver.at(path);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, lastStatusCode: 200, type: 'invoice.voided', eventId: requests[0]?.headers['webhook-id'] });
    expect(delivery).not.toHaveProperty('nextAttemptAt');
    expect(delivery).not.toHaveProperty('lastError');
    // Backoff: each retry waits longer than the last (100 ms, then 200 ms, +-20 %).
    const gaps = requests.slice(1).map((request, index) => request.receivedAt - (requests[index] as ReceivedWebhook).receivedAt);
    expect(gaps[0]).toBeGreaterThanOrEqual(80);
    expect(gaps[1]).toBeGreaterThanOrEqual(160);
  });

  it('shows the attempt in progress: pending with the last status, error and next attempt', async () => {
    // Prepare
    const ws = await api.newWorkspace('Webhooks: in progress');
    const path = `/slowly-${ws.workspaceId}`;
    const hook = await endpoint(ws, receiver.script(path, 503), ['invoice.voided']);
    // Act
    await ok(api.request('POST', `/v1/invoices/${await invoice(ws, await contact(ws))}/void`, { key: ws.apiKey }));
    const [delivery] = await until(() => deliveriesOf(ws, hook.id), (list) => (list[0]?.attempts ?? 0) >= 1);
    // Assess
    expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: 503, lastError: 'the receiver answered HTTP 503' });
    // Exactly the contract's fields (API.md): the stored response excerpt stays internal.
    expect(Object.keys(delivery ?? {}).sort()).toEqual(['attempts', 'createdAt', 'eventId', 'id', 'lastError', 'lastStatusCode', 'nextAttemptAt', 'status', 'type']);
    expect(Date.parse(delivery?.nextAttemptAt)).toBeGreaterThan(Date.parse(delivery?.createdAt) - 1);
    await ok(api.request('DELETE', `/v1/webhook-endpoints/${hook.id}`, { key: ws.apiKey }));
  });

  it('gives up on a receiver that never answers: failed after 8 attempts, and dead-lettered (deployed, the DLQ alarm fires)', async () => {
    // Prepare
    const ws = await api.newWorkspace('Webhooks: silent');
    const path = `/silent-${ws.workspaceId}`;
    const hook = await endpoint(ws, receiver.script(path, 'hang'), ['invoice.voided']);
    // Act
    await ok(api.request('POST', `/v1/invoices/${await invoice(ws, await contact(ws))}/void`, { key: ws.apiKey }));
    const [delivery] = await until(() => deliveriesOf(ws, hook.id), (list) => list[0]?.status === 'failed', 45_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // Assess
    expect(delivery).toMatchObject({ status: 'failed', attempts: 8, lastError: 'no answer within 1 s' });
    expect(delivery).not.toHaveProperty('nextAttemptAt');
    expect(receiver.at(path)).toHaveLength(8);
    const deadLetters = (api.webhooks?.queue.deadLetters ?? []).map((body) => JSON.parse(body) as Json);
    expect(deadLetters.filter((message) => message.deliveryId === delivery?.id)).toEqual([{ workspaceId: ws.workspaceId, endpointId: hook.id, deliveryId: delivery?.id }]);
  }, 60_000);

  it('stops sending to a deleted endpoint, pending retries included', async () => {
    // Prepare
    const ws = await api.newWorkspace('Webhooks: deleted');
    const path = `/deleted-${ws.workspaceId}`;
    const hook = await endpoint(ws, receiver.script(path, 500), ['invoice.voided']);
    await ok(api.request('POST', `/v1/invoices/${await invoice(ws, await contact(ws))}/void`, { key: ws.apiKey }));
    await receiver.until(() => receiver.at(path).length >= 1);
    // Act
    await ok(api.request('DELETE', `/v1/webhook-endpoints/${hook.id}`, { key: ws.apiKey }));
    const after = receiver.at(path).length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // Assess: at most the attempt already on its way when the endpoint went
    expect(receiver.at(path).length).toBeLessThanOrEqual(after + 1);
  });

  it('redelivers with 202 and the same event id, as a new delivery', async () => {
    // Prepare
    const ws = await api.newWorkspace('Webhooks: redeliver');
    const path = `/again-${ws.workspaceId}`;
    const hook = await endpoint(ws, receiver.script(path, 200), ['invoice.voided']);
    await ok(api.request('POST', `/v1/invoices/${await invoice(ws, await contact(ws))}/void`, { key: ws.apiKey }));
    const [original] = await until(() => deliveriesOf(ws, hook.id), (list) => list[0]?.status === 'succeeded');
    // Act
    const response = await api.request('POST', `/v1/webhook-endpoints/${hook.id}/deliveries/${original?.id}/redeliver`, { key: ws.apiKey });
    await receiver.until(() => receiver.at(path).length >= 2);
    const list = await until(() => deliveriesOf(ws, hook.id), (deliveries) => deliveries.length === 2 && deliveries.every((delivery) => delivery.status === 'succeeded'));
    // Assess
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ eventId: original?.eventId, type: 'invoice.voided', status: 'pending', attempts: 0 });
    expect(response.body.data.id).not.toBe(original?.id);
    const [first, second] = receiver.at(path);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(second?.body).toBe(first?.body);
    expect(() => new Webhook(hook.secret).verify(second?.body as string, second?.headers as Record<string, string>)).not.toThrow();
    // Both listed (ids minted in the same second have no order between them).
    expect(new Set(list.map((delivery) => delivery.id))).toEqual(new Set([response.body.data.id, original?.id]));
  });

  it('signs with the new and the previous secret for a day after a rotation', async () => {
    // Prepare
    const ws = await api.newWorkspace('Webhooks: rotation');
    const path = `/rotated-${ws.workspaceId}`;
    const hook = await endpoint(ws, receiver.script(path, 200), ['invoice.voided']);
    const rotated = (await ok(api.request('POST', `/v1/webhook-endpoints/${hook.id}/rotate-secret`, { key: ws.apiKey }))).data;
    // Act
    await ok(api.request('POST', `/v1/invoices/${await invoice(ws, await contact(ws))}/void`, { key: ws.apiKey }));
    await receiver.until(() => receiver.at(path).length >= 1);
    // Assess
    const [request] = receiver.at(path);
    const headers = request?.headers as Record<string, string>;
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(() => new Webhook(rotated.secret).verify(request?.body as string, headers)).not.toThrow();
    expect(() => new Webhook(hook.secret).verify(request?.body as string, headers)).not.toThrow();
  });
});

describe('the transactional outbox', () => {
  it('emits event.published once: on a draft becoming published, not on later edits or drafts', async () => {
    // Prepare
    const ws = await api.newWorkspace('Outbox: events');
    const draft = (await ok(api.request('POST', '/v1/events', { key: ws.apiKey, body: EVENT }))).data;
    // Act
    await ok(api.request('PATCH', `/v1/events/${draft.id}`, { key: ws.apiKey, body: { name: 'Renamed draft' } }));
    const published = (await ok(api.request('PATCH', `/v1/events/${draft.id}`, { key: ws.apiKey, body: { status: 'published' } }))).data;
    await ok(api.request('PATCH', `/v1/events/${draft.id}`, { key: ws.apiKey, body: { name: 'Renamed after publishing' } }));
    // Assess
    const events = await outbox(ws);
    expect(events.map((event) => event.type)).toEqual(['event.published']);
    expect(JSON.parse(events[0]?.body as string).data.object).toEqual(published);
  });

  it('emits nothing for a refund refused by the cap', async () => {
    // Prepare
    const ws = await api.newWorkspace('Outbox: refund cap');
    const id = await invoice(ws, await contact(ws));
    await ok(finalize(ws, id));
    const payment = (await ok(pay(ws, id, 5_000))).data;
    const before = await outbox(ws);
    // Act
    const refused = await api.request('POST', `/v1/invoices/${id}/payments/${payment.id}/refunds`, { key: ws.apiKey, body: { amount: 5_001, idempotencyKey: 'too-much' } });
    const racing = await Promise.all([1, 2, 3].map((n) => api.request('POST', `/v1/invoices/${id}/payments/${payment.id}/refunds`, { key: ws.apiKey, body: { amount: 3_000, idempotencyKey: `race-${n}` } })));
    // Assess
    expect(refused.status).toBe(422);
    expect(racing.map((response) => response.status).sort()).toEqual([201, 422, 422]);
    const after = await outbox(ws);
    expect(after.length - before.length).toBe(1);
    expect(after.filter((event) => event.type === 'refund.created')).toHaveLength(1);
  });

  it('emits contact.created once for concurrent creates of one email (the 409s emit nothing), and nothing for an update', async () => {
    // Prepare
    const ws = await api.newWorkspace('Outbox: contacts');
    // Act
    const creates = await Promise.all(Array.from({ length: 5 }, () => api.request('POST', '/v1/contacts', { key: ws.apiKey, body: { email: 'same@example.com' } })));
    const created = creates.find((response) => response.status === 201)?.body.data;
    await ok(api.request('PATCH', `/v1/contacts/${created?.id}`, { key: ws.apiKey, body: { firstName: 'Renamed' } }));
    // Assess
    expect(creates.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const events = await outbox(ws);
    expect(events.map((event) => event.type)).toEqual(['contact.created']);
    expect(JSON.parse(events[0]?.body as string).data.object).toEqual(created);
  });

  it('emits form_response.created per accepted submission, contact.created for the new contact only, and nothing for a refused one', async () => {
    // Prepare
    const ws = await api.newWorkspace('Outbox: submissions');
    const form = await signupForm(ws);
    // Act
    const refused = await submit(form.formId, { [form.emailId]: 'not an email' });
    const first = (await ok(submit(form.formId, { [form.emailId]: 'ada@example.com' }))).data;
    const second = (await ok(submit(form.formId, { [form.emailId]: 'ADA@example.com' }))).data;
    // Assess
    expect(refused.status).toBe(422);
    const events = await outbox(ws);
    expect(events.filter((event) => event.type === 'contact.created').map((event) => JSON.parse(event.body).data.object.id)).toEqual([first.contactId]);
    expect(events.filter((event) => event.type === 'form_response.created').map((event) => JSON.parse(event.body).data.object.id).sort()).toEqual([first.id, second.id].sort());
    expect(events).toHaveLength(3);
  });

  it('emits one invoice.finalized for concurrent finalizes of one invoice', async () => {
    // Prepare
    const ws = await api.newWorkspace('Outbox: finalize race');
    const id = await invoice(ws, await contact(ws));
    // Act
    const responses = await Promise.all(Array.from({ length: 5 }, () => finalize(ws, id)));
    const again = await finalize(ws, id);
    // Assess
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    expect(again.status).toBe(409);
    const events = (await outbox(ws)).filter((event) => event.type !== 'contact.created');
    expect(events.map((event) => event.type)).toEqual(['invoice.finalized']);
    expect(JSON.parse(events[0]?.body as string).data.object.number).toBe('INV-000001');
  });

  it('emits exactly 50 invoice.paid events for 50 concurrent payments, one delivery each', async () => {
    // Prepare
    const ws = await api.newWorkspace('Outbox: 50 payments');
    const customer = await contact(ws);
    // Created and finalized one after the other (finalizes take gapless numbers from one counter): the payments are what race.
    const ids: string[] = [];
    for (let n = 0; n < 50; n += 1) ids.push(await invoice(ws, customer, { total: 2_000 }));
    for (const id of ids) await ok(finalize(ws, id));
    const path = `/paid-${ws.workspaceId}`;
    const hook = await endpoint(ws, receiver.script(path, 200), ['invoice.paid']);
    // Act
    const payments = await Promise.all(ids.map((id) => payAsClient(ws, id, 2_000)));
    const deliveries = await until(
      async () => (await ok(api.request('GET', `/v1/webhook-endpoints/${hook.id}/deliveries?limit=100`, { key: ws.apiKey }))).data as Json[],
      (list) => list.length === 50 && list.every((delivery) => delivery.status === 'succeeded'),
      60_000,
    );
    // Assess
    expect(payments.map((response) => response.status), payments.filter((response) => response.status !== 201).map((response) => response.text).join('\n')).toEqual(ids.map(() => 201));
    const paid = (await outbox(ws)).filter((event) => event.type === 'invoice.paid');
    expect(paid).toHaveLength(50);
    expect(new Set(paid.map((event) => JSON.parse(event.body).data.object.id))).toEqual(new Set(ids));
    expect(new Set(deliveries.map((delivery) => delivery.eventId))).toEqual(new Set(paid.map((event) => event.id)));
    // Each event reached the receiver. Delivery is at least once: on a loaded machine a retry (this
    // test's 1 s timeout) or a re-read stream record can repeat a request, always with its event's id.
    const received = receiver.at(path);
    expect(new Set(received.map((request) => request.headers['webhook-id']))).toEqual(new Set(paid.map((event) => event.id)));
  }, 150_000);

  it('emits one invoice.paid when concurrent partial payments pay one invoice', async () => {
    // Prepare
    const ws = await api.newWorkspace('Outbox: partial payments');
    const id = await invoice(ws, await contact(ws), { total: 1_000 });
    await ok(finalize(ws, id));
    // Act
    const payments = await Promise.all(Array.from({ length: 10 }, () => payAsClient(ws, id, 100)));
    // Assess
    expect(payments.map((response) => response.status)).toEqual(Array.from({ length: 10 }, () => 201));
    expect((await outbox(ws)).map((event) => event.type).sort()).toEqual(['contact.created', 'invoice.finalized', 'invoice.paid']);
  });
});
