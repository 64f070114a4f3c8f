import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_ENTITY, contactKeys, toContactItem, type Contact } from '../../shared/contacts/contact-model.js';
import { createContact } from '../../shared/contacts/contacts-repository.js';
import { getItem, putItem } from '../../shared/db/conditional.js';
import { creationOrderBackfill } from '../../shared/db/backfill.js';
import type { Form } from '../../shared/forms/form-model.js';
import { createForm } from '../../shared/forms/forms-repository.js';
import { newId } from '../../shared/ids.js';
import { createInvoice } from '../../shared/invoices/invoices-service.js';
import { toLedgerItem, type LedgerEntry } from '../../shared/ledger/ledger-model.js';
import { ledgerOrderBackfill } from '../../shared/ledger/ledger-backfill.js';
import { readBalanceScope } from '../../shared/ledger/ledger-repository.js';
import { createProperty } from '../../shared/properties/properties-repository.js';
import { buildProperty } from '../../shared/properties/property-rules.js';
import type { FormResponse } from '../../shared/responses/response-model.js';
import { saveSubmission } from '../../shared/responses/responses-repository.js';
import { createEndpoint } from '../../shared/webhooks/webhook-endpoints-service.js';
import { insertDelivery } from '../../shared/webhooks/webhooks-repository.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { idsByCursor, idsByPages } from './support/list-costs.js';

/**
 * Ids carry a random tail (API.md "Ids"), so ids minted in the same second sort in no particular
 * order. Every list documented in creation order must still give it: each domain below gets items
 * created within ONE second, a few milliseconds apart (so their ids share the seconds prefix and
 * their tails are random), and each list must return them in creation order both ways, by page
 * numbers and by cursor alike.
 */

const COUNT = 8;
/** The i-th creation time: all in the same second, 37 ms apart. */
const at = (i: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, 0, 50 + i * 37));

let api: TestApi;
let ws: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  ws = await api.newWorkspace('Creation order');
});
afterAll(async () => api.close());

/** The list at `path` gives `created` (in creation order) oldest first with `asc` and newest first with `desc`. */
async function expectCreationOrder(path: string, created: readonly string[]): Promise<void> {
  const join = path.includes('?') ? '&' : '?';
  const asc = `${path}${join}direction=asc`;
  const desc = `${path}${join}direction=desc`;
  expect(await idsByPages(api, ws.apiKey, asc, 3)).toEqual(created);
  expect(await idsByCursor(api, ws.apiKey, asc, 3)).toEqual(created);
  expect(await idsByPages(api, ws.apiKey, desc, 3)).toEqual([...created].reverse());
  expect(await idsByCursor(api, ws.apiKey, desc, 3)).toEqual([...created].reverse());
}

async function contacts(count = COUNT): Promise<Contact[]> {
  const made: Contact[] = [];
  for (let i = 0; i < count; i += 1) {
    const contact: Contact = { id: newId(at(i)), email: `order-${newId()}@example.com`, properties: {}, version: 1, createdAt: at(i).toISOString(), updatedAt: at(i).toISOString() };
    await createContact(ws.workspaceId, contact);
    made.push(contact);
  }
  return made;
}

describe('lists in creation order, for items created within one second', () => {
  it('the ids of one second are not in creation order (else this file proves nothing)', () => {
    const ids = Array.from({ length: COUNT }, (_, i) => newId(at(i)));
    expect([...ids].sort()).not.toEqual(ids);
  });

  it('GET /v1/properties (sort=createdAt), unfiltered and filtered', async () => {
    const created: string[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      const property = buildProperty({ type: 'Text', name: `Ordered ${newId()}`, objectType: 'ticket' }, at(i));
      await createProperty(ws.workspaceId, property);
      created.push(property.id);
    }
    await expectCreationOrder('/v1/properties?sort=createdAt&objectType=ticket', created);
    const all = await idsByPages(api, ws.apiKey, '/v1/properties?sort=createdAt&direction=asc', 50);
    expect(all.filter((id) => created.includes(id))).toEqual(created);
  });

  it('GET /v1/forms (sort=createdAt), unfiltered and by status', async () => {
    const created: string[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      const form: Form = {
        id: newId(at(i)), name: `Ordered ${i}`, ownerId: ws.workspaceId, status: 'archived', type: 'standalone', isEventForm: false, elements: [], rows: [],
        attendeeRowsStart: 0, submitButtonText: 'Submit', submitButtonWidth: 'auto', version: 1, createdAt: at(i).toISOString(), updatedAt: at(i).toISOString(),
      };
      await createForm(ws.workspaceId, form);
      created.push(form.id);
    }
    await expectCreationOrder('/v1/forms?sort=createdAt&status=archived', created);
    const all = await idsByPages(api, ws.apiKey, '/v1/forms?sort=createdAt&direction=asc', 50);
    expect(all.filter((id) => created.includes(id))).toEqual(created);
  });

  it('GET /v1/contacts (sort=createdAt)', async () => {
    const fresh = await api.newWorkspace('Creation order, contacts');
    const made: Contact[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      const contact: Contact = { id: newId(at(i)), email: `c${i}@example.com`, properties: {}, version: 1, createdAt: at(i).toISOString(), updatedAt: at(i).toISOString() };
      await createContact(fresh.workspaceId, contact);
      made.push(contact);
    }
    const ids = made.map((contact) => contact.id);
    expect(await idsByPages(api, fresh.apiKey, '/v1/contacts?sort=createdAt&direction=asc', 3)).toEqual(ids);
    expect(await idsByCursor(api, fresh.apiKey, '/v1/contacts?sort=createdAt&direction=desc', 3)).toEqual([...ids].reverse());
  });

  it('GET /v1/invoices, unfiltered and by status and customer', async () => {
    const [customer] = await contacts(1);
    const created: string[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      const invoice = await createInvoice(ws.workspaceId, { customerId: (customer as Contact).id, currency: 'USD', lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: 100 }] }, at(i));
      created.push(invoice.id);
    }
    await expectCreationOrder('/v1/invoices', created);
    await expectCreationOrder(`/v1/invoices?customerId=${(customer as Contact).id}&status=draft`, created);
  });

  it('GET /v1/forms/{formId}/responses, unfiltered and by contact', async () => {
    const form = await api.request('POST', '/v1/forms', { key: ws.apiKey, body: { name: 'Responses in order', type: 'standalone', status: 'active' } });
    const [contact] = await contacts(1);
    const created: string[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      const response: FormResponse = { id: newId(at(i)), formId: form.body.data.id, answers: {}, contactId: (contact as Contact).id, createdAt: at(i).toISOString() };
      await saveSubmission(ws.workspaceId, response);
      created.push(response.id);
    }
    await expectCreationOrder(`/v1/forms/${form.body.data.id}/responses`, created);
    await expectCreationOrder(`/v1/forms/${form.body.data.id}/responses?contactId=${(contact as Contact).id}`, created);
  });

  it('GET /v1/webhook-endpoints and an endpoint\'s deliveries', async () => {
    const fresh = await api.newWorkspace('Creation order, webhooks');
    const endpoints: string[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      endpoints.push((await createEndpoint(fresh.workspaceId, { url: `http://127.0.0.1:9/order-${i}`, events: ['*'] }, at(i))).id);
    }
    expect(await idsByPages(api, fresh.apiKey, '/v1/webhook-endpoints?direction=asc', 3)).toEqual(endpoints);
    expect(await idsByCursor(api, fresh.apiKey, '/v1/webhook-endpoints?direction=desc', 3)).toEqual([...endpoints].reverse());
    const endpointId = endpoints[0] as string;
    const deliveries: string[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      const id = newId(at(i));
      await insertDelivery({ id, workspaceId: fresh.workspaceId, endpointId, eventId: newId(at(i)), type: 'invoice.paid', status: 'failed', attempts: 8, createdAt: at(i).toISOString() }, at(i));
      deliveries.push(id);
    }
    const path = `/v1/webhook-endpoints/${endpointId}/deliveries`;
    expect(await idsByPages(api, fresh.apiKey, `${path}?direction=asc`, 3)).toEqual(deliveries);
    expect(await idsByCursor(api, fresh.apiKey, path, 3)).toEqual([...deliveries].reverse());
  });

  it('the balance\'s recent ledger entries (`orders`), account-wide and for an event', async () => {
    const fresh = await api.newWorkspace('Creation order, ledger');
    const eventId = newId();
    const created: string[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      const entry: LedgerEntry = {
        id: newId(at(i)), type: 'payment', currency: 'USD', gross: 100 + i, platformFee: 1, processorFee: 0, fees: 1, refundedAmount: 0, paidOut: 0, net: 99 + i,
        eventId, availableAt: at(i).toISOString(), createdAt: at(i).toISOString(),
      };
      await putItem(toLedgerItem(fresh.workspaceId, entry));
      created.push(entry.id);
    }
    const newestFirst = [...created].reverse();
    const account = await readBalanceScope(fresh.workspaceId, 'USD', undefined, at(COUNT));
    const event = await readBalanceScope(fresh.workspaceId, 'USD', eventId, at(COUNT));
    expect(account.recent.map((entry) => entry.id)).toEqual(newestFirst);
    expect(event.recent.map((entry) => entry.id)).toEqual(newestFirst);
  });
});

describe('items created in the same millisecond', () => {
  it('come back between the ones before and after, each exactly once, in one stable order both ways, by cursor and by page', async () => {
    // Prepare: one contact a millisecond before, seven in the same millisecond (their ids share the
    // second and differ only in their random tails), one a millisecond after
    const fresh = await api.newWorkspace('Creation order, same millisecond');
    const same = new Date(Date.UTC(2026, 2, 1, 12, 0, 0, 500));
    const times = [new Date(same.getTime() - 1), ...Array.from({ length: 7 }, () => same), new Date(same.getTime() + 1)];
    const made: Contact[] = [];
    for (const [i, time] of times.entries()) {
      const contact: Contact = { id: newId(time), email: `ms${i}@example.com`, properties: {}, version: 1, createdAt: time.toISOString(), updatedAt: time.toISOString() };
      await createContact(fresh.workspaceId, contact);
      made.push(contact);
    }
    const ids = made.map((contact) => contact.id);
    // Within the millisecond the id breaks the tie: arbitrary, but the same on every read.
    const expected = [ids[0] as string, ...ids.slice(1, -1).sort(), ids.at(-1) as string];
    // Act
    const ascByCursor = await idsByCursor(api, fresh.apiKey, '/v1/contacts?direction=asc', 2);
    const descByCursor = await idsByCursor(api, fresh.apiKey, '/v1/contacts?direction=desc', 3);
    const ascByPages = await idsByPages(api, fresh.apiKey, '/v1/contacts?direction=asc', 2);
    // Assess
    expect(new Set(ids.map((id) => id.slice(0, 8))).size).toBe(1);
    expect(ascByCursor).toEqual(expected);
    expect(descByCursor).toEqual([...expected].reverse());
    expect(ascByPages).toEqual(expected);
  });
});

/** An item as the code before the creation order stored it: no GSI3 place, ledger event entries sorted by id. */
function legacy(item: Record<string, unknown>): Record<string, unknown> {
  const { GSI3PK: _pk, GSI3SK: _sk, ...rest } = item;
  if (typeof rest.GSI2SK === 'string' && rest.entity === 'LedgerEntry') rest.GSI2SK = `LEDGER#${String(rest.currency)}#${String(rest.id)}`;
  return rest;
}

describe('creation-order backfill', () => {
  it('places main items written before the creation order in it, in order; a second run changes nothing', async () => {
    // Prepare
    const fresh = await api.newWorkspace('Creation order backfill');
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      const contact: Contact = { id: newId(at(i)), email: `legacy-${i}@example.com`, properties: {}, version: 3, createdAt: at(i).toISOString(), updatedAt: at(i).toISOString() };
      const item = legacy(toContactItem(fresh.workspaceId, contact));
      await putItem(item);
      items.push(item);
    }
    const ids = items.map((item) => item.id as string);
    const step = creationOrderBackfill(CONTACT_ENTITY, 'contacts');
    expect(await idsByPages(api, fresh.apiKey, '/v1/contacts', 50)).toEqual([]);
    // Act
    const written = await Promise.all(items.map((item) => step.rebuild(item)));
    const stored = await getItem(contactKeys.contact(fresh.workspaceId, ids[0] as string), { consistent: true });
    await Promise.all(items.map((item) => step.rebuild(item)));
    const storedAgain = await getItem(contactKeys.contact(fresh.workspaceId, ids[0] as string), { consistent: true });
    // Assess
    expect(written).toEqual(Array(COUNT).fill(1));
    expect(storedAgain).toEqual(stored);
    expect(stored).toEqual(toContactItem(fresh.workspaceId, { ...(items[0] as unknown as Contact) }));
    expect(await idsByPages(api, fresh.apiKey, '/v1/contacts?direction=asc', 3)).toEqual(ids);
  });

  it('rewrites legacy ledger entries so the recent activity is in creation order, account-wide and for an event', async () => {
    // Prepare
    const fresh = await api.newWorkspace('Ledger order backfill');
    const eventId = newId();
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      const entry: LedgerEntry = {
        id: newId(at(i)), type: 'payment', currency: 'CAD', gross: 100, platformFee: 1, processorFee: 0, fees: 1, refundedAmount: 0, paidOut: 0, net: 99,
        eventId, availableAt: at(i).toISOString(), createdAt: at(i).toISOString(),
      };
      const item = legacy(toLedgerItem(fresh.workspaceId, entry));
      await putItem(item);
      items.push(item);
    }
    const newestFirst = items.map((item) => item.id as string).reverse();
    // Act
    const written = await Promise.all(items.map((item) => ledgerOrderBackfill.rebuild(item)));
    await Promise.all(items.map((item) => ledgerOrderBackfill.rebuild(item)));
    // Assess
    expect(written).toEqual(Array(COUNT).fill(1));
    expect((await readBalanceScope(fresh.workspaceId, 'CAD', undefined, at(COUNT))).recent.map((entry) => entry.id)).toEqual(newestFirst);
    expect((await readBalanceScope(fresh.workspaceId, 'CAD', eventId, at(COUNT))).recent.map((entry) => entry.id)).toEqual(newestFirst);
  });
});
