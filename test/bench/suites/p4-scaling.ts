import { randomBytes } from 'node:crypto';
import { CHECKOUT_SORT_FIELDS, type CheckoutRecord } from '../../../shared/checkouts/checkout-model.js';
import { FORM_STATUSES } from '../../../shared/forms/form-model.js';
import { newId } from '../../../shared/ids.js';
import { insertInvoice } from '../../../shared/invoices/invoices-repository.js';
import { createInvoice } from '../../../shared/invoices/invoices-service.js';
import { createPartner } from '../../../shared/partners/partners-repository.js';
import { OBJECT_TYPES, PROPERTY_STATUSES } from '../../../shared/properties/property-model.js';
import { insertDelivery, insertEndpoint } from '../../../shared/webhooks/webhooks-repository.js';
import { createApiKey, createWorkspace } from '../../../shared/workspaces/workspaces-repository.js';
import { checkoutShape, seedCheckouts } from '../../integration/support/checkouts-seed.js';
import { seedContacts, seedForms, seedProperties, seedResponses } from '../../integration/support/crm-seed.js';
import { seedEvents } from '../../integration/support/events-seed.js';
import { seedPayouts } from '../../integration/support/payouts-seed.js';
import { seedImages } from '../../integration/support/seed-images.js';
import { parseDbStats, type BenchEnvironment } from '../harness.js';
import { round } from '../stats.js';
import type { BenchSuite } from '../suite.js';

/** Page size of every row, unless its list sets one. */
const LIMIT = 4;
/** The cursor page measured: reached from page 0 by following this many `nextCursor`s. */
const CURSOR_DEPTH = 3;
/** Done-when of issue 9: 10x the data costs at most this times the items and RCU of 1x. */
const GOAL_RATIO = 1.1;

/** A list seeded at one scale: its path (with any fixed query), the key that reads it (none: public), values rows refer to. */
export interface SeededList {
  path: string;
  apiKey?: string;
  /** `{name}` in a row is replaced by `vars.name` (ids the seed created). */
  vars?: Record<string, string>;
}

/**
 * One list endpoint of the scaling table: how to seed `scale` times its base data into a fresh
 * workspace, and one row per sort x filter (a query string). Every row's page 0 must be a full page
 * at 1x, so that 1x and 10x compare page for page, and its 10x data must reach the cursor page. A list
 * added to the API, or moved to keys, is one more entry in SCALING_LISTS.
 */
export interface ScalingList {
  /** `GET /v1/events` */
  route: string;
  seed(scale: number): Promise<SeededList>;
  rows: readonly string[];
  /** Page size where LIMIT does not fit (a list capped below 10x its base data). */
  limit?: number;
  /** The page-size parameter of a list with a contract of its own (images: `pageSize`). */
  limitParam?: string;
  /** Why its 10x data is not exactly 10x (a cap). */
  note?: string;
}

const tag = () => randomBytes(4).toString('hex');

async function freshWorkspace(name: string): Promise<{ workspaceId: string; apiKey: string }> {
  const { id } = await createWorkspace(name);
  const { apiKey } = await createApiKey(id, 'read_write');
  return { workspaceId: id, apiKey };
}

/** Every sort with every filter: `sort=a`, `sort=a&f=x`, ... */
const everySortAndFilter = (sorts: readonly string[], filters: readonly string[]) =>
  sorts.flatMap((sort) => filters.map((filter) => [`sort=${sort}`, filter].filter(Boolean).join('&')));

/** Start days scattered around today: about half of the events have ended. */
const scrambled = (index: number) => ((index * 7) % 41) - 20;

/** The rows of every list. */
export const SCALING_LISTS: readonly ScalingList[] = [
  {
    route: 'GET /v1/events',
    // Status x visibility in turn: a quarter of the events each.
    async seed(scale) {
      const ws = await freshWorkspace(`P4 events ${scale}x`);
      await seedEvents(ws.workspaceId, 20 * scale, {
        body: (i) => ({ status: i % 2 === 0 ? 'published' : 'draft', visibility: Math.floor(i / 2) % 2 === 0 ? 'public' : 'private' }),
        startDays: scrambled,
      });
      return { path: '/v1/events', apiKey: ws.apiKey };
    },
    rows: everySortAndFilter(['createdAt', 'start', 'end', 'name'], ['', 'status=draft', 'visibility=private', 'status=published&visibility=public']),
  },
  {
    route: 'GET /partner/events',
    // Every event listed under the code: cities in turn (1/2), tiers in thirds (1/3 gold), half ended.
    async seed(scale) {
      const code = `P4-${scale}x-${tag()}`;
      await createPartner({ referral_code: code });
      const ws = await freshWorkspace(`P4 partner ${scale}x`);
      await seedEvents(ws.workspaceId, 40 * scale, {
        body: (i) => ({
          status: 'published', visibility: 'public', referral_code: code,
          metaData: { city: i % 2 === 0 ? 'Montreal' : 'Toronto', tier: i % 3 === 0 ? 'gold' : 'silver' },
        }),
        startDays: scrambled,
      });
      return { path: `/partner/events?referral_code=${code}` };
    },
    // 0, 1 and 2 metaData filters, and one nothing matches, with every sort and filter.
    rows: ['start', 'end', 'createdAt'].flatMap((sort) => ['all', 'upcoming', 'past'].flatMap((filter) =>
      ['', 'city=Montreal', 'city=Montreal&tier=gold', 'city=Nowhere'].map((meta) => [`sort=${sort}`, `filter=${filter}`, meta].filter(Boolean).join('&')))),
  },
  {
    route: 'GET /v1/properties',
    // objectType x status: an eighth of the properties each (crm-seed).
    async seed(scale) {
      const ws = await freshWorkspace(`P4 properties ${scale}x`);
      await seedProperties(ws.workspaceId, 40 * scale);
      return { path: '/v1/properties', apiKey: ws.apiKey };
    },
    rows: everySortAndFilter(['createdAt', 'name', 'updatedAt'], [
      '', `objectType=${OBJECT_TYPES[1]}`, `status=${PROPERTY_STATUSES[1]}`, `objectType=${OBJECT_TYPES[1]}&status=${PROPERTY_STATUSES[1]}`,
    ]),
  },
  {
    route: 'GET /v1/forms',
    // Statuses in turn: a third of the forms each.
    async seed(scale) {
      const ws = await freshWorkspace(`P4 forms ${scale}x`);
      await seedForms(ws.workspaceId, 15 * scale);
      return { path: '/v1/forms', apiKey: ws.apiKey };
    },
    rows: everySortAndFilter(['createdAt', 'name', 'updatedAt'], ['', `status=${FORM_STATUSES[1]}`]),
  },
  {
    route: 'GET /v1/contacts',
    async seed(scale) {
      const ws = await freshWorkspace(`P4 contacts ${scale}x`);
      await seedContacts(ws.workspaceId, 10 * scale);
      return { path: '/v1/contacts', apiKey: ws.apiKey };
    },
    // The email filter finds the one contact with that address at both scales: one page, no cursor page.
    rows: ['sort=createdAt', 'sort=email', 'email=contact-00001@example.com'],
  },
  {
    route: 'GET /v1/forms/{formId}/responses',
    // Responses of one form from two contacts in turn: half each.
    async seed(scale) {
      const ws = await freshWorkspace(`P4 responses ${scale}x`);
      const contacts = await seedContacts(ws.workspaceId, 2);
      const { form } = await seedResponses(ws.workspaceId, 10 * scale, contacts.map((contact) => contact.id));
      return { path: `/v1/forms/${form.id}/responses`, apiKey: ws.apiKey, vars: { contact: contacts[0]?.id ?? '' } };
    },
    rows: ['', 'contactId={contact}'],
  },
  {
    route: 'GET /v1/invoices',
    // Two customers in turn, drafts and voided drafts in pairs: a quarter of the invoices per customer and status.
    async seed(scale) {
      const ws = await freshWorkspace(`P4 invoices ${scale}x`);
      const customers = (await seedContacts(ws.workspaceId, 2)).map((contact) => contact.id);
      const template = await createInvoice(ws.workspaceId, { customerId: customers[0] as string, currency: 'USD', lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: 1000 }] });
      const base = Date.parse(template.createdAt);
      for (let i = 1; i < 20 * scale; i += 1) {
        const at = new Date(base + i * 1000);
        await insertInvoice(ws.workspaceId, {
          ...template, id: newId(at), customerId: customers[i % 2] as string, status: Math.floor(i / 2) % 2 === 0 ? 'draft' : 'void',
          createdAt: at.toISOString(), updatedAt: at.toISOString(),
        });
      }
      return { path: '/v1/invoices', apiKey: ws.apiKey, vars: { customer: customers[1] as string } };
    },
    rows: ['', 'status=void', 'customerId={customer}', 'customerId={customer}&status=void'],
  },
  {
    route: 'GET /v1/payouts',
    // Currency and event in turn: USD without an event, USD for event A, CAD for event B (a third each).
    async seed(scale) {
      const ws = await freshWorkspace(`P4 payouts ${scale}x`);
      const [eventA, eventB] = [newId(), newId()];
      const cycle = [{ currency: 'USD' as const }, { currency: 'USD' as const, eventId: eventA }, { currency: 'CAD' as const, eventId: eventB }];
      await seedPayouts(ws.workspaceId, 15 * scale, { of: (index) => cycle[index % 3] as (typeof cycle)[number] });
      return { path: '/v1/payouts', apiKey: ws.apiKey, vars: { eventA, eventB } };
    },
    rows: ['', 'currency=USD', 'eventId={eventA}', 'currency=CAD&eventId={eventB}'],
  },
  {
    route: 'GET /v1/checkouts',
    // checkoutShape: status alternates, a third public, every fifth on timeslot slot-x, 0-3 products;
    // a quarter carry the seeded event (and its name, for the event sort).
    async seed(scale) {
      const ws = await freshWorkspace(`P4 checkouts ${scale}x`);
      const [event] = await seedEvents(ws.workspaceId, 1);
      const eventId = event?.id as string;
      await seedCheckouts(ws.workspaceId, 40 * scale, {
        fields: (index): Partial<CheckoutRecord> => ({ ...checkoutShape(index), ...(index % 4 === 0 ? { eventId } : {}) }),
        names: (index) => (index % 4 === 0 ? { event: event?.name ?? '' } : {}),
      });
      return { path: '/v1/checkouts', apiKey: ws.apiKey, vars: { event: eventId } };
    },
    // Every sort field, then each key-served filter (status cells, visibility x isEventSet cells, the
    // event and timeslot partitions, a productsCount range on its own sort). Free-text `search` is not a
    // row: it evaluates checkouts by design, within the documented 1,000-checkout budget per request.
    rows: [
      ...CHECKOUT_SORT_FIELDS.map((field) => `sortField=${field}`),
      'status=closed',
      `sortField=updatedAt&filters=${encodeURIComponent('[{"field":"visibility","op":"eq","value":"private"},{"field":"isEventSet","op":"eq","value":false}]')}`,
      'eventId={event}&sortField=name',
      'timeslotId=slot-x&sortField=productsCount',
      `sortField=productsCount&filters=${encodeURIComponent('[{"field":"productsCount","op":"gte","value":2}]')}`,
    ],
    limitParam: 'pageSize',
  },
  {
    route: 'GET /v1/assets/images',
    async seed(scale) {
      const ws = await freshWorkspace(`P4 images ${scale}x`);
      await seedImages(ws.workspaceId, 10 * scale);
      return { path: '/v1/assets/images', apiKey: ws.apiKey };
    },
    rows: [''],
    limitParam: 'pageSize',
  },
  {
    route: 'GET /v1/webhook-endpoints',
    // A workspace has at most 16 endpoints: 2 and 16 (8x), one per page.
    async seed(scale) {
      const ws = await freshWorkspace(`P4 webhook endpoints ${scale}x`);
      for (let i = 0; i < Math.min(2 * scale, 16); i += 1) await seedEndpoint(ws.workspaceId, i);
      return { path: '/v1/webhook-endpoints', apiKey: ws.apiKey };
    },
    rows: [''],
    limit: 1,
    note: '10x capped at 16 endpoints (8x)',
  },
  {
    route: 'GET /v1/webhook-endpoints/{endpointId}/deliveries',
    async seed(scale) {
      const ws = await freshWorkspace(`P4 webhook deliveries ${scale}x`);
      const endpointId = await seedEndpoint(ws.workspaceId, 0);
      const base = Date.now() - 3_600_000;
      for (let i = 0; i < 10 * scale; i += 1) {
        const at = new Date(base + i * 1000);
        await insertDelivery({
          id: newId(at), eventId: newId(at), type: 'invoice.paid', status: 'succeeded', attempts: 1, lastStatusCode: 200,
          createdAt: at.toISOString(), workspaceId: ws.workspaceId, endpointId,
        }, at);
      }
      return { path: `/v1/webhook-endpoints/${endpointId}/deliveries`, apiKey: ws.apiKey };
    },
    rows: [''],
  },
];

/** An endpoint written through the repository (its URL is never called; the ciphertext is a stand-in). */
async function seedEndpoint(workspaceId: string, index: number): Promise<string> {
  const at = new Date(Date.now() - 3_600_000 + index * 1000).toISOString();
  const id = newId(new Date(at));
  await insertEndpoint(workspaceId, { id, url: `https://receiver.example/p4-${index}`, events: ['invoice.paid'], status: 'enabled', createdAt: at, updatedAt: at, secretCiphertext: 'bench' });
  return id;
}

/** DynamoDB cost of one page (`X-Db-Stats`). */
export interface PageCost {
  calls: number;
  items: number;
  rcu: number;
}

interface PageRead {
  cost: PageCost;
  nextCursor: string | null;
}

function urlOf(env: BenchEnvironment, list: ScalingList, seeded: SeededList, row: string, cursor: string | null): string {
  const query = row.replace(/\{(\w+)\}/g, (_, name: string) => seeded.vars?.[name] ?? '');
  const parts = [query, `${list.limitParam ?? 'limit'}=${list.limit ?? LIMIT}`, cursor === null ? '' : `cursor=${encodeURIComponent(cursor)}`].filter(Boolean);
  return `${env.server.url}${seeded.path}${seeded.path.includes('?') ? '&' : '?'}${parts.join('&')}`;
}

async function readPage(env: BenchEnvironment, list: ScalingList, seeded: SeededList, row: string, cursor: string | null): Promise<PageRead> {
  const url = urlOf(env, list, seeded, row, cursor);
  const response = await fetch(url, { headers: seeded.apiKey ? { Authorization: `Bearer ${seeded.apiKey}` } : {} });
  const body = await response.json() as { nextCursor?: string | null };
  // The partner listing answers 404 NO_EVENTS_FOUND when nothing matches: still a page, with its cost.
  if (response.status !== 200 && response.status !== 404) throw new Error(`P4: ${url} answered ${response.status}`);
  const stats = parseDbStats(response.headers.get('x-db-stats'));
  return { cost: { calls: stats.calls ?? 0, items: stats.items ?? 0, rcu: stats.rcu ?? 0 }, nextCursor: body.nextCursor ?? null };
}

/** Page 0, and the page CURSOR_DEPTH cursors further (undefined when the list ends before it). */
async function measure(env: BenchEnvironment, list: ScalingList, seeded: SeededList, row: string): Promise<{ first: PageCost; deep?: PageCost }> {
  const first = await readPage(env, list, seeded, row, null);
  let page = first;
  for (let depth = 0; depth < CURSOR_DEPTH; depth += 1) {
    if (page.nextCursor === null) return { first: first.cost };
    page = await readPage(env, list, seeded, row, page.nextCursor);
  }
  return { first: first.cost, deep: page.cost };
}

/** The larger of the items and RCU ratios (0/0 counts as 1). */
function worstRatio(numerator: PageCost, denominator: PageCost): number {
  const ratio = (a: number, b: number) => (b === 0 ? (a === 0 ? 1 : Number.POSITIVE_INFINITY) : a / b);
  return Math.max(ratio(numerator.items, denominator.items), ratio(numerator.rcu, denominator.rcu));
}

export interface ScalingRow {
  /** The list and the row's query: `GET /v1/events?sort=start&status=draft`. */
  route: string;
  /** Page 0 at 1x and at 10x; the cursor page at 10x. */
  page0x1: PageCost;
  page0x10: PageCost;
  cursorPage?: PageCost;
  /** 10x / 1x of page 0, the larger of items and RCU. */
  ratio: number;
  /** Cursor page / page 0 at 10x, the larger of calls, items and RCU. */
  cursorRatio?: number;
  met: boolean;
  note?: string;
}

const show = (cost: PageCost | undefined) => (cost ? `${cost.calls} / ${cost.items} / ${cost.rcu}` : '-');

/**
 * P4: the scaling suite of issue 9. For every list endpoint and each of its sorts and filters (the
 * partner listing with 0, 1 and 2 metaData filters and one that matches nothing), what page 0 costs
 * with the list's base data and with 10x as much (another workspace, so the 1x data is foreign data
 * there), and what the page reached by following 3 cursors costs at 10x: DynamoDB calls, items read
 * and RCU from `X-Db-Stats`. Goal: 10x costs the same calls and at most 1.1x the items and RCU of 1x,
 * and the cursor page costs no more than page 0.
 */
export const scalingSuite: BenchSuite = {
  id: 'p4',
  title: `P4 list cost at 1x and 10x data, page 0 and cursor page ${CURSOR_DEPTH} (limit ${LIMIT})`,
  async run(context) {
    const env = await context.environment();
    const rows: ScalingRow[] = [];
    for (const list of SCALING_LISTS) {
      const [small, large] = [await list.seed(1), await list.seed(10)];
      for (const row of list.rows) {
        const one = await measure(env, list, small, row);
        const ten = await measure(env, list, large, row);
        const ratio = round(worstRatio(ten.first, one.first), 2);
        const cursorRatio = ten.deep ? round(Math.max(worstRatio(ten.deep, ten.first), ten.deep.calls / ten.first.calls), 2) : undefined;
        const met = ten.first.calls === one.first.calls && ratio <= GOAL_RATIO && (cursorRatio === undefined || cursorRatio <= 1);
        const query = row.replace(/\{(\w+)\}/g, '<$1>');
        rows.push({
          route: `${list.route}${query ? `?${query}` : ''}`, page0x1: one.first, page0x10: ten.first, ...(ten.deep ? { cursorPage: ten.deep, cursorRatio } : {}),
          ratio, met, ...(list.note ? { note: list.note } : !ten.deep ? { note: 'one page: no cursor page' } : {}),
        });
      }
    }
    const missed = rows.filter((row) => !row.met);
    return {
      table: rows.map((row) => ({
        route: row.route, 'page 0 at 1x (calls / items / RCU)': show(row.page0x1), 'page 0 at 10x': show(row.page0x10), [`cursor page ${CURSOR_DEPTH} at 10x`]: show(row.cursorPage),
        '10x / 1x': row.ratio, 'cursor / page 0': row.cursorRatio ?? '-', met: row.met, note: row.note ?? '',
      })),
      json: rows,
      verdicts: [
        `P4: ${rows.length - missed.length} of ${rows.length} rows met (10x: same calls, <= ${GOAL_RATIO}x items and RCU; cursor page ${CURSOR_DEPTH} <= page 0)`
          + (missed.length > 0 ? `; missed: ${missed.map((row) => `${row.route} (${row.ratio}x${row.cursorRatio !== undefined ? `, cursor ${row.cursorRatio}` : ''})`).join(', ')}` : ''),
      ],
    };
  },
};
