import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;
let other: TestWorkspace;
const ids: Record<string, string> = {};

async function post(path: string, body: unknown, key = workspace.apiKey) {
  const response = await api.request('POST', path, { key, body });
  expect(response.status).toBe(201);
  return response.body.data;
}

function list(query = '', key = workspace.apiKey) {
  return api.request('GET', `/v1/checkouts${query}`, { key });
}

const names = (response: { body: { data: { name: string }[] } }) => response.body.data.map((checkout) => checkout.name);

beforeAll(async () => {
  api = await startApi();
  [workspace, other] = await Promise.all([api.newWorkspace('Checkout list'), api.newWorkspace('Checkout list other')]);
  const zebra = await post('/v1/events', { name: 'Zebra Fest', start: '2030-01-01T10:00:00Z', end: '2030-01-01T12:00:00Z', products: [{ name: 'A', price: 100 }, { name: 'B', price: 200 }, { name: 'C', price: 300 }] });
  const apple = await post('/v1/events', { name: 'Apple Day', start: '2030-01-01T10:00:00Z', end: '2030-01-01T12:00:00Z', products: [{ name: 'A', price: 100 }] });
  const alpha = await post('/v1/forms', { name: 'Alpha form', type: 'order' });
  const omega = await post('/v1/forms', { name: 'Omega form', type: 'order' });
  const product = (event: { products: { id: string }[] }, index: number) => ({ productId: event.products[index]?.id });
  // Created one by one so that creation order is known.
  ids.charlie = (await post('/v1/checkouts', { name: 'Charlie', description: 'Winter SALE', status: 'open', visibility: 'public', eventId: zebra.id, orderFormId: alpha.id, timeslotId: 'slot-a', products: [product(zebra, 0), product(zebra, 1), product(zebra, 2)] })).id;
  ids.alpha = (await post('/v1/checkouts', { name: 'alpha', description: 'plain', status: 'closed', eventId: apple.id, orderFormId: omega.id, products: [product(apple, 0)] })).id;
  ids.bravo = (await post('/v1/checkouts', { name: 'Bravo sale', status: 'open', timeslotId: 'slot-b' })).id;
  await post('/v1/checkouts', { name: 'Foreign sale' }, other.apiKey);
});
afterAll(async () => api.close());

describe('GET /v1/checkouts', () => {
  it('lists the workspace\'s checkouts newest first with the paging fields', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ hasMore: false, pageNumber: 0, pageSize: 50 });
    expect(response.body.data).toHaveLength(3);
    expect(response.body.data.map((checkout: { id: string }) => checkout.id)).toEqual([ids.bravo, ids.alpha, ids.charlie]);
    expect(names(response)).not.toContain('Foreign sale');
  });

  it('computes productsCount, eventName and formName on list items', async () => {
    const response = await list('?sortField=name');
    const charlie = response.body.data.find((checkout: { name: string }) => checkout.name === 'Charlie');
    expect(charlie).toMatchObject({ productsCount: 3, eventName: 'Zebra Fest', formName: 'Alpha form', isEventSet: true });
  });

  it('resolves event and form names with one batch read each, not one read per checkout', async () => {
    // Act
    const response = await list('?sortField=event');
    // Assess: two Queries of the event-name order (checkouts with an event, then those without), one
    // BatchGet of the page's checkouts, one of their events, one of their forms
    expect(response.body.data.filter((checkout: { eventName?: string }) => checkout.eventName)).toHaveLength(2);
    expect(response.headers.get('x-db-stats')).toMatch(/^calls=5;/);
  });

  it('pages with pageNumber and pageSize', async () => {
    const first = await list('?sortField=name&pageSize=2');
    const second = await list('?sortField=name&pageSize=2&pageNumber=1');
    expect(names(first)).toEqual(['alpha', 'Bravo sale']);
    expect(first.body).toMatchObject({ hasMore: true, pageNumber: 0, pageSize: 2 });
    expect(names(second)).toEqual(['Charlie']);
    expect(second.body.hasMore).toBe(false);
  });

  it('searches name and description case-insensitively', async () => {
    expect(names(await list('?search=SALE&sortField=name'))).toEqual(['Bravo sale', 'Charlie']);
    expect(names(await list('?search=PLAIN'))).toEqual(['alpha']);
  });

  it('filters by status, eventId and timeslotId', async () => {
    expect(names(await list('?status=closed'))).toEqual(['alpha']);
    const byEvent = await list(`?eventId=${(await list('?status=closed')).body.data[0].eventId}`);
    expect(names(byEvent)).toEqual(['alpha']);
    expect(names(await list('?timeslotId=slot-b'))).toEqual(['Bravo sale']);
  });

  it.each([
    ['name', 'asc', ['alpha', 'Bravo sale', 'Charlie']],
    ['name', 'desc', ['Charlie', 'Bravo sale', 'alpha']],
    ['productsCount', 'desc', ['Charlie', 'alpha', 'Bravo sale']],
    ['event', 'asc', ['alpha', 'Charlie', 'Bravo sale']],
    ['event', 'desc', ['Charlie', 'alpha', 'Bravo sale']],
    ['form', 'asc', ['Charlie', 'alpha', 'Bravo sale']],
    ['description', 'asc', ['alpha', 'Charlie', 'Bravo sale']],
  ])('sorts by %s %s', async (field, direction, expected) => {
    const response = await list(`?sortField=${field}&sortDirection=${direction}`);
    expect(response.status).toBe(200);
    expect(names(response)).toEqual(expected);
  });

  it('sorts by status, open before closed when descending', async () => {
    const response = await list('?sortField=status&sortDirection=desc');
    expect(response.body.data.map((checkout: { status: string }) => checkout.status)).toEqual(['open', 'open', 'closed']);
  });

  it('sorts by _id in id order and by createdAt newest first', async () => {
    const created = [ids.charlie, ids.alpha, ids.bravo].sort();
    expect((await list('?sortField=_id')).body.data.map((checkout: { id: string }) => checkout.id)).toEqual(created);
    const newest = (await list('?sortField=createdAt&sortDirection=desc')).body.data.map((checkout: { createdAt: string }) => Date.parse(checkout.createdAt));
    expect(newest).toEqual([...newest].sort((a, b) => b - a));
    expect(newest[0]).toBeGreaterThan(newest[2] as number);
  });

  it('applies JSON filters', async () => {
    const filters = (value: unknown) => `?sortField=name&filters=${encodeURIComponent(JSON.stringify(value))}`;
    expect(names(await list(filters([{ field: 'productsCount', op: 'gte', value: 1 }])))).toEqual(['alpha', 'Charlie']);
    expect(names(await list(filters([{ field: 'isEventSet', op: 'eq', value: false }])))).toEqual(['Bravo sale']);
    expect(names(await list(filters([{ field: 'visibility', op: 'eq', value: 'public' }, { field: 'status', op: 'in', value: ['open', 'closed'] }])))).toEqual(['Charlie']);
    expect(names(await list(filters([{ field: 'createdAt', op: 'lt', value: '2000-01-01T00:00:00Z' }])))).toEqual([]);
    expect(names(await list(filters([])))).toHaveLength(3);
  });

  it.each([
    ['pageNumber=-1', 'pageNumber'],
    ['pageNumber=x', 'pageNumber'],
    ['pageSize=0', 'pageSize'],
    ['pageSize=201', 'pageSize'],
    ['status=archived', 'status'],
    ['sortField=price', 'sortField'],
    ['sortDirection=up', 'sortDirection'],
    ['unknown=1', 'unknown'],
    ['eventId=zz', 'eventId'],
    ['filters=not-json', 'filters'],
    [`filters=${encodeURIComponent('{"field":"status"}')}`, 'filters'],
    [`filters=${encodeURIComponent('[{"field":"price","op":"eq","value":1}]')}`, 'filters[0]'],
    [`filters=${encodeURIComponent('[{"field":"status","op":"gt","value":"open"}]')}`, 'filters[0]'],
    [`filters=${encodeURIComponent('[{"field":"status","op":"like","value":"open"}]')}`, 'filters[0]'],
    [`filters=${encodeURIComponent('[{"field":"productsCount","op":"eq","value":"2"}]')}`, 'filters[0]'],
    [`filters=${encodeURIComponent('[{"field":"status","op":"in","value":[]}]')}`, 'filters[0]'],
    [`filters=${encodeURIComponent('[{"field":"eventId","op":"eq","value":"zz"}]')}`, 'filters[0]'],
    [`filters=${encodeURIComponent('[{"field":"eventId","op":"in","value":["bbbbbbbbbbbbbbbbbbbbbbbb","zz"]}]')}`, 'filters[0]'],
  ])('is 400 invalid_query for %s', async (query, path) => {
    const response = await list(`?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_query');
    expect(response.body.error.details[0].path).toBe(path);
  });

  it('answers with and without the trailing slash', async () => {
    expect((await list('/')).status).toBe(200);
  });

  it('never lists another workspace\'s checkouts', async () => {
    const response = await list('', other.apiKey);
    expect(names(response)).toEqual(['Foreign sale']);
  });
});
