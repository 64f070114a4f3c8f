import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutRecord } from '../../shared/checkouts/checkout-model.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { dbStats } from './support/db-stats.js';
import { seedCheckouts } from './support/checkouts-seed.js';

/**
 * Every index path of GET /v1/checkouts (README "Data model", checkouts rows) against an oracle: the
 * order and selection the list had when it sorted the whole workspace in memory (natural,
 * case-insensitive names; missing values last in both directions; ties by id in the same direction).
 * A foreign workspace with the same shapes of data is present throughout.
 */

let api: TestApi;
let ws: TestWorkspace;
let foreign: TestWorkspace;
let records: CheckoutRecord[];
const eventNames = new Map<string, string>();
const formNames = new Map<string, string>();
let beta: string;
let alpha: string;

const NAMES = ['Delta 10', 'delta 9', 'Échelle', 'alpha', 'Bravo', 'charlie 2', 'Charlie 10', 'echo'];
const N = 24;

async function post(workspace: TestWorkspace, path: string, body: unknown): Promise<{ id: string; name: string }> {
  const response = await api.request('POST', path, { key: workspace.apiKey, body });
  expect(response.status).toBe(201);
  return response.body.data;
}

function shape(index: number, events: readonly string[], forms: readonly string[]): Partial<CheckoutRecord> {
  const eventId = [undefined, events[0], events[1], events[0]][index % 4];
  const orderFormId = [undefined, forms[0], forms[1]][index % 3];
  return {
    name: `${NAMES[index % NAMES.length]}${index >= NAMES.length ? ` ${Math.floor(index / NAMES.length)}` : ''}`,
    ...(index % 3 === 0 ? {} : { description: `Desc ${(index * 5) % 7} of ${index}` }),
    status: index % 2 === 1 ? 'closed' : 'open',
    visibility: index % 3 === 0 ? 'public' : 'private',
    ...(eventId ? { eventId } : {}),
    ...(orderFormId ? { orderFormId } : {}),
    ...(index % 5 === 0 ? { timeslotId: 'slot-x' } : {}),
    products: Array.from({ length: index % 4 }, (_, product) => ({ productId: `${String(product).padStart(24, 'a')}`, visibility: 'visible' as const, dependents: [] })),
    updatedAt: new Date(1_900_000_000_000 + ((index * 7) % N) * 1000 + 500).toISOString(),
  };
}

async function seed(workspace: TestWorkspace, count: number, prefix: string) {
  const events = [await post(workspace, '/v1/events', { name: `${prefix}Beta Event`, start: '2030-01-01T10:00:00Z', end: '2030-01-01T12:00:00Z' }), await post(workspace, '/v1/events', { name: `${prefix}Alpha Event`, start: '2030-01-01T10:00:00Z', end: '2030-01-01T12:00:00Z' })];
  const forms = [await post(workspace, '/v1/forms', { name: `${prefix}Zulu form`, type: 'order' }), await post(workspace, '/v1/forms', { name: `${prefix}Mike form`, type: 'order' })];
  const names = new Map([...events, ...forms].map((item) => [item.id, item.name]));
  const seeded = await seedCheckouts(workspace.workspaceId, count, {
    startMs: 1_900_000_000_000,
    stepMs: 1000,
    fields: (index) => shape(index, events.map((event) => event.id), forms.map((form) => form.id)),
    names: (index) => {
      const fields = shape(index, events.map((event) => event.id), forms.map((form) => form.id));
      return { ...(fields.eventId ? { event: names.get(fields.eventId) as string } : {}), ...(fields.orderFormId ? { form: names.get(fields.orderFormId) as string } : {}) };
    },
  });
  return { seeded, events, forms, names };
}

beforeAll(async () => {
  api = await startApi();
  [ws, foreign] = await Promise.all([api.newWorkspace('Checkout index'), api.newWorkspace('Checkout index foreign')]);
  const mine = await seed(ws, N, '');
  await seed(foreign, N, '');
  records = mine.seeded;
  mine.events.forEach((event) => eventNames.set(event.id, event.name));
  mine.forms.forEach((form) => formNames.set(form.id, form.name));
  [beta, alpha] = mine.events.map((event) => event.id) as [string, string];
}, 120_000);
afterAll(async () => api.close());

// The oracle -------------------------------------------------------------------------------------------

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
type Field = 'name' | 'description' | 'createdAt' | 'updatedAt' | 'status' | 'visibility' | 'productsCount' | '_id' | 'event' | 'form';

function valueOf(record: CheckoutRecord, field: Field): string | number | undefined {
  switch (field) {
    case '_id': return record.id;
    case 'productsCount': return record.products.length;
    case 'createdAt': case 'updatedAt': return Date.parse(record[field]);
    case 'event': return record.eventId && eventNames.get(record.eventId);
    case 'form': return record.orderFormId && formNames.get(record.orderFormId);
    default: return record[field];
  }
}

function oracle(field: Field, direction: 'asc' | 'desc', where: (record: CheckoutRecord) => boolean = () => true): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  const byId = (a: CheckoutRecord, b: CheckoutRecord) => sign * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return records.filter(where).sort((a, b) => {
    const [x, y] = [valueOf(a, field), valueOf(b, field)];
    if (x === undefined || y === undefined) return x === y ? byId(a, b) : x === undefined ? 1 : -1;
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : field === '_id' ? (x < y ? -1 : x > y ? 1 : 0) : collator.compare(String(x), String(y));
    return order !== 0 ? sign * order : byId(a, b);
  }).map((record) => record.id);
}

// ------------------------------------------------------------------------------------------------------

const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((checkout) => checkout.id);
const list = (query: string, workspace = ws) => api.request('GET', `/v1/checkouts?${query}`, { key: workspace.apiKey });
const filters = (value: unknown) => `filters=${encodeURIComponent(JSON.stringify(value))}`;

/** Every id of a list, page by page through nextCursor. */
async function followCursors(query: string, pageSize = 5): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await list(`${query}&pageSize=${pageSize}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    expect(response.status).toBe(200);
    seen.push(...ids(response));
    cursor = response.body.nextCursor;
    expect(cursor === null).toBe(!response.body.hasMore);
  } while (cursor !== null);
  return seen;
}

const FIELDS: Field[] = ['name', 'description', 'createdAt', 'updatedAt', 'status', 'visibility', 'productsCount', '_id', 'event', 'form'];

describe('GET /v1/checkouts: every sort is a key order', () => {
  it.each(FIELDS.flatMap((field) => (['asc', 'desc'] as const).map((direction) => [field, direction] as const)))('sorts by %s %s as the whole-workspace sort did', async (field, direction) => {
    const response = await list(`sortField=${field}&sortDirection=${direction}&pageSize=200`);
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(oracle(field, direction));
  });

  it.each([['name'], ['description'], ['event']])('visits the same checkouts by cursor as by page number, sorted by %s', async (field) => {
    const byPage: string[] = [];
    for (let page = 0; page < 5; page += 1) byPage.push(...ids(await list(`sortField=${field}&pageSize=5&pageNumber=${page}`)));
    expect(await followCursors(`sortField=${field}`)).toEqual(byPage);
    expect(byPage).toEqual(oracle(field as Field, 'asc'));
  });
});

describe('GET /v1/checkouts: filters from partitions and key ranges', () => {
  const cases: [string, string, Field, 'asc' | 'desc', (record: CheckoutRecord) => boolean][] = [
    ['status (4 cells merged)', 'status=closed', 'createdAt', 'desc', (record) => record.status === 'closed'],
    ['visibility and isEventSet (2 cells)', filters([{ field: 'visibility', op: 'eq', value: 'public' }, { field: 'isEventSet', op: 'eq', value: true }]), 'name', 'asc', (record) => record.visibility === 'public' && record.eventId !== undefined],
    ['status ne and visibility in (2 cells)', filters([{ field: 'status', op: 'ne', value: 'open' }, { field: 'visibility', op: 'in', value: ['private'] }]), 'updatedAt', 'desc', (record) => record.status === 'closed' && record.visibility === 'private'],
    ['eventId (event partition)', 'eventId=BETA', 'name', 'desc', (record) => record.eventId === beta],
    ['eventId in (merged event partitions)', filters([{ field: 'eventId', op: 'in', value: ['BETA', 'ALPHA'] }]), 'form', 'asc', (record) => record.eventId !== undefined],
    ['timeslotId (timeslot partition)', 'timeslotId=slot-x', 'productsCount', 'asc', (record) => record.timeslotId === 'slot-x'],
    ['createdAt range on the createdAt sort (key range)', filters([{ field: 'createdAt', op: 'gte', value: '2030-03-17T17:46:45Z' }, { field: 'createdAt', op: 'lt', value: '2030-03-17T17:46:55Z' }]), 'createdAt', 'asc',
      (record) => Date.parse(record.createdAt) >= Date.parse('2030-03-17T17:46:45Z') && Date.parse(record.createdAt) < Date.parse('2030-03-17T17:46:55Z')],
    ['productsCount range on its sort (key range)', filters([{ field: 'productsCount', op: 'gt', value: 1 }]), 'productsCount', 'desc', (record) => record.products.length > 1],
    ['eventId and visibility (partition + evaluated)', `eventId=BETA&${filters([{ field: 'visibility', op: 'eq', value: 'private' }])}`, 'description', 'asc', (record) => record.eventId === beta && record.visibility === 'private'],
    ['updatedAt range on another sort (evaluated)', filters([{ field: 'updatedAt', op: 'lte', value: '2030-03-17T17:46:50.500Z' }]), 'name', 'asc', (record) => Date.parse(record.updatedAt) <= Date.parse('2030-03-17T17:46:50.500Z')],
    ['search (evaluated on the ALL scope)', 'search=DELTA', 'name', 'asc', (record) => record.name.toLowerCase().includes('delta')],
    ['search in descriptions', 'search=desc%203', 'event', 'desc', (record) => (record.description ?? '').toLowerCase().includes('desc 3')],
  ];

  it.each(cases)('selects by %s in the order of the sort, by page and by cursor', async (_label, rawQuery, field, direction, where) => {
    const query = `${rawQuery.replaceAll('BETA', beta).replaceAll('ALPHA', alpha)}&sortField=${field}&sortDirection=${direction}`;
    const expected = oracle(field, direction, where);
    expect(expected.length).toBeGreaterThan(0);
    const whole = await list(`${query}&pageSize=200`);
    expect(whole.status).toBe(200);
    expect(ids(whole)).toEqual(expected);
    expect(await followCursors(query, 3)).toEqual(expected);
  });

  it('answers a filter no checkout can meet without reading anything', async () => {
    const response = await list(filters([{ field: 'status', op: 'eq', value: 'open' }, { field: 'status', op: 'eq', value: 'closed' }]));
    expect(response.body).toMatchObject({ data: [], hasMore: false, nextCursor: null });
    expect(dbStats(response).calls).toBe(0);
  });

  it('never lists the foreign workspace\'s checkouts under the same filters', async () => {
    const response = await list('status=closed&pageSize=200', foreign);
    const mine = new Set(records.map((record) => record.id));
    expect(ids(response).length).toBeGreaterThan(0);
    expect(ids(response).some((id) => mine.has(id))).toBe(false);
  });
});
