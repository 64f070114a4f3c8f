import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutListBackfill } from '../../shared/checkouts/checkout-backfill.js';
import { listItemsOf } from '../../shared/checkouts/checkout-list-model.js';
import { checkoutKeys, fromCheckoutItem, LIST_NAMES_ATTRIBUTE } from '../../shared/checkouts/checkout-model.js';
import { rekeyCheckout } from '../../shared/checkouts/checkouts-repository.js';
import { deleteItem, getItem, putItem } from '../../shared/db/conditional.js';
import { keyOfItem } from '../../shared/db/table-design.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

/**
 * The checkouts list's projections stay true when what they are keyed with changes elsewhere (an
 * event or form rename), and the backfill gives checkouts stored before them their projections.
 */

let api: TestApi;
/** Each test's own workspace. */
let ws: TestWorkspace;

async function post(path: string, body: unknown): Promise<{ id: string; name: string }> {
  const response = await api.request('POST', path, { key: ws.apiKey, body });
  expect(response.status).toBe(201);
  return response.body.data;
}
const event = (name: string) => post('/v1/events', { name, start: '2030-01-01T10:00:00Z', end: '2030-01-01T12:00:00Z' });
const names = async (query: string) => (await api.request('GET', `/v1/checkouts?${query}`, { key: ws.apiKey })).body.data.map((checkout: { name: string }) => checkout.name);

/** Re-keys a checkout's projections with names its event or form no longer has (a rename stopped half-way). */
async function keyWithStaleNames(checkoutId: string, stale: { event?: string; form?: string }): Promise<void> {
  const stored = await getItem(checkoutKeys.checkout(ws.workspaceId, checkoutId), { consistent: true }) as Record<string, unknown>;
  await rekeyCheckout(ws.workspaceId, fromCheckoutItem(stored), stale, [], () => new Error('moved'));
}

/**
 * A fresh workspace whose event Mango has a checkout ('stale') keyed as if the event were still called
 * Apricot (a rename stopped half-way), beside a checkout of the event Kiwi: sorted by event, 'stale'
 * comes first until it is re-keyed.
 */
async function workspaceWithStaleEventName(name: string): Promise<{ mango: { id: string }; stale: { id: string } }> {
  ws = await api.newWorkspace(name);
  const [mango, kiwi] = [await event('Mango'), await event('Kiwi')];
  const stale = await post('/v1/checkouts', { name: 'stale', eventId: mango.id });
  await post('/v1/checkouts', { name: 'kiwi', eventId: kiwi.id });
  await keyWithStaleNames(stale.id, { event: 'Apricot' });
  expect(await names('sortField=event')).toEqual(['stale', 'kiwi']);
  return { mango, stale };
}

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

describe('checkout list projections follow renames', () => {
  it('re-keys the checkouts of a renamed event, so sorting by event uses the new name', async () => {
    // Prepare
    ws = await api.newWorkspace('Event rename');
    const [apple, zebra] = [await event('Apple'), await event('Zebra')];
    await post('/v1/checkouts', { name: 'on zebra', eventId: zebra.id });
    const onApple = [await post('/v1/checkouts', { name: 'on apple', eventId: apple.id }), await post('/v1/checkouts', { name: 'on apple too', eventId: apple.id })];
    // The two on one event tie: ties break by id in the sort's direction (ids are random within a second).
    const tiedAscending = onApple.sort((a, b) => (a.id < b.id ? -1 : 1)).map((checkout) => checkout.name);
    expect(await names('sortField=event')).toEqual([...tiedAscending, 'on zebra']);
    // Act
    const renamed = await api.request('PATCH', `/v1/events/${apple.id}`, { key: ws.apiKey, body: { name: 'Zulu' } });
    // Assess
    expect(renamed.status).toBe(200);
    expect(await names('sortField=event')).toEqual(['on zebra', ...tiedAscending]);
    expect(await names(`sortField=event&eventId=${apple.id}&sortDirection=desc`)).toEqual([...tiedAscending].reverse());
  });

  it('finishes an interrupted re-keying when the update naming the event is sent again', async () => {
    // Prepare: the event is called Mango, but a checkout's projections still carry Apricot.
    const { mango } = await workspaceWithStaleEventName('Rename resumed');
    // Act: the same name again
    expect((await api.request('PATCH', `/v1/events/${mango.id}`, { key: ws.apiKey, body: { name: 'Mango' } })).status).toBe(200);
    // Assess
    expect(await names('sortField=event')).toEqual(['kiwi', 'stale']);
  });

  it('re-keys the checkouts of a renamed order form, so sorting by form uses the new name', async () => {
    ws = await api.newWorkspace('Form rename');
    const alpha = await post('/v1/forms', { name: 'Alpha', type: 'order' });
    const beta = await post('/v1/forms', { name: 'Beta', type: 'order' });
    await post('/v1/checkouts', { name: 'with alpha', orderFormId: alpha.id });
    await post('/v1/checkouts', { name: 'with beta', orderFormId: beta.id });
    expect(await names('sortField=form')).toEqual(['with alpha', 'with beta']);
    const renamed = await api.request('PATCH', `/v1/forms/${alpha.id}`, { key: ws.apiKey, body: { name: 'Omega' } });
    expect(renamed.status).toBe(200);
    expect(await names('sortField=form')).toEqual(['with beta', 'with alpha']);
  });
  it('finishes an interrupted re-keying of a form when its settings naming it are sent again, leaving a foreign workspace alone', async () => {
    // Prepare: the form is called Mango, but a checkout's projections still carry Apricot; a foreign
    // workspace has checkouts on a form of the same name.
    const foreign = await api.newWorkspace('Foreign forms');
    ws = foreign;
    const foreignForm = await post('/v1/forms', { name: 'Mango', type: 'order' });
    await post('/v1/checkouts', { name: 'foreign', orderFormId: foreignForm.id });
    ws = await api.newWorkspace('Form rename resumed');
    const [mango, kiwi] = [await post('/v1/forms', { name: 'Mango', type: 'order' }), await post('/v1/forms', { name: 'Kiwi', type: 'order' })];
    const stale = await post('/v1/checkouts', { name: 'stale', orderFormId: mango.id });
    await post('/v1/checkouts', { name: 'kiwi', orderFormId: kiwi.id });
    await keyWithStaleNames(stale.id, { form: 'Apricot' });
    expect(await names('sortField=form')).toEqual(['stale', 'kiwi']);
    // Act: the same name again
    expect((await api.request('PATCH', `/v1/forms/${mango.id}`, { key: ws.apiKey, body: { name: 'Mango' } })).status).toBe(200);
    // Assess
    expect(await names('sortField=form')).toEqual(['kiwi', 'stale']);
    const stored = fromCheckoutItem(await getItem(checkoutKeys.checkout(ws.workspaceId, stale.id), { consistent: true }) as Record<string, unknown>);
    expect(stored.listNames).toEqual({ form: 'Mango' });
    ws = foreign;
    expect(await names('sortField=form')).toEqual(['foreign']);
  });
});

describe('checkout list backfill', () => {
  it('gives a checkout stored without list projections all of them, and a second run writes nothing', async () => {
    // Prepare: a checkout as the previous version stored it (no projections, no listNames).
    ws = await api.newWorkspace('Checkout backfill');
    const gala = await event('Gala');
    const created = await post('/v1/checkouts', { name: 'Legacy', eventId: gala.id, timeslotId: 'slot-1' });
    const key = checkoutKeys.checkout(ws.workspaceId, created.id);
    const stored = fromCheckoutItem(await getItem(key, { consistent: true }) as Record<string, unknown>);
    for (const item of listItemsOf(ws.workspaceId, stored.record, stored.listNames)) await deleteItem(keyOfItem(item));
    const { [LIST_NAMES_ATTRIBUTE]: _names, ...legacy } = await getItem(key, { consistent: true }) as Record<string, unknown>;
    await putItem(legacy);
    expect(await names('sortField=name')).toEqual([]);
    // Act
    const first = await checkoutListBackfill.rebuild(legacy);
    const second = await checkoutListBackfill.rebuild(await getItem(key, { consistent: true }) as Record<string, unknown>);
    // Assess
    expect(first).toBe(10 * 4);
    expect(second).toBe(0);
    expect(checkoutListBackfill.entity).toBe(legacy.entity);
    for (const query of ['sortField=name', 'sortField=event', 'status=open', `eventId=${gala.id}`, 'timeslotId=slot-1', 'search=legacy']) {
      expect(await names(query), query).toEqual(['Legacy']);
    }
  });

  it('re-keys a checkout whose projections kept an old event name (a rename stopped half-way)', async () => {
    // Prepare: the projections carry a name the event no longer has.
    const { stale } = await workspaceWithStaleEventName('Checkout repair');
    await checkoutListBackfill.rebuild(await getItem(checkoutKeys.checkout(ws.workspaceId, stale.id), { consistent: true }) as Record<string, unknown>);
    expect(await names('sortField=event')).toEqual(['kiwi', 'stale']);
  });
});
