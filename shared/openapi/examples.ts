/**
 * Examples for the OpenAPI document: one per JSON request body and per JSON 2xx answer, built from the
 * operation's own schema with realistic values for the fields the API has (names, emails, amounts in
 * cents, ids, times). They live here, with the document builder, not in the route schemas the
 * functions bundle. A unit test parses each with the route's zod schema; `redocly lint` validates them
 * against the document's schemas.
 */

import { componentName, resourceOf } from './compact.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A stable, realistic-looking id per field name: `formId` always gets the same one. */
function idFor(key: string | undefined): string {
  let hash = 2166136261;
  for (const char of key ?? 'id') hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return `6740f1a2c3d4e5f6${hash.toString(16).padStart(8, '0')}`;
}

const WHEN = '2027-04-17T19:00:00.000Z';

/** Values for string fields, by field name. */
const STRINGS: Readonly<Record<string, string>> = {
  name: 'Spring Gala 2027',
  formName: 'Spring Gala RSVP',
  eventName: 'Spring Gala 2027',
  productName: 'General admission',
  title: 'Spring Gala 2027',
  label: 'General admission',
  prompt: 'What is your name?',
  otherPrompt: 'Other (please specify)',
  helperText: 'As it should appear on your badge.',
  placeholder: 'Ada Lovelace',
  description: 'Dinner and live music.',
  email: 'ada@example.com',
  customerEmail: 'ada@example.com',
  firstName: 'Ada',
  customerFirstName: 'Ada',
  lastName: 'Lovelace',
  customerLastName: 'Lovelace',
  phone: '+15145550123',
  customerPhone: '+15145550123',
  companyName: 'Analytical Engines Ltd',
  memo: 'Table for 8, dinner included.',
  note: 'Paid at the door.',
  notes: 'Paid at the door.',
  message: 'Done.',
  text: 'Doors open at 18:30.',
  content: 'Doors open at 18:30.',
  url: 'https://hooks.example.com/boxoffice',
  href: 'https://example.com/spring-gala',
  redirectUrl: 'https://example.com/thank-you',
  imageUrl: 'https://cdn.example.com/images/gala.jpg',
  eventImage: 'https://cdn.example.com/images/gala.jpg',
  eventImageUrl: 'https://cdn.example.com/images/gala.jpg',
  productImageUrl: 'https://cdn.example.com/images/ticket.jpg',
  virtualEventLink: 'https://meet.example.com/spring-gala',
  eventLocation: 'Grand Hall, 1 Main Street, Montreal',
  eventTimezone: 'America/Toronto',
  availabilityTimezone: 'America/Toronto',
  timezone: 'America/Toronto',
  language: 'en',
  referral_code: 'spring-partner',
  code: 'spring-partner',
  key: 'dietary',
  filename: 'gala.jpg',
  secret: 'whsec_8dGbdMCE5NECVnajpwz/x8D3w/9VuH+KNfX8DnZDg20=',
  idempotencyKey: 'door-2027-0042',
  payButtonLabel: 'Pay now',
  submitButtonText: 'Send',
  refundPolicy: 'Refunds up to 7 days before the event.',
  locationPlaceholder: 'Venue to be announced',
  failureCode: 'card_declined',
  failureMessage: 'The card was declined.',
  externalId: 'ext_8842',
  externalRefundId: 're_3PqL2x',
  chargeId: 'ch_3PqL2x',
  latest_charge: 'ch_3PqL2x',
  number: 'INV-0042',
  version: '3',
  status: 'ok',
  api: 'ok',
  docs: '/docs',
  openapi: '3.1.0',
  username: 'springgala',
  instagram: 'springgala',
  linkedin: 'spring-gala',
  bio: 'Community events since 2009.',
  avatar: 'https://cdn.example.com/images/avatar.jpg',
  banner: 'https://cdn.example.com/images/banner.jpg',
  lastError: 'HTTP 502 from the endpoint',
  lastResponseBody: '{"ok":false}',
  nextCursor: 'eyJvIjoiNjc0MGYxYTIifQ',
  cursor: 'eyJvIjoiNjc0MGYxYTIifQ',
};

/**
 * Values for fields whose meaning depends on what holds them, by `Resource.field` (the component schema the
 * field is in, `CreateX`/`XOutput` read as `X`) or `parent.field` (the object field it is in, a list's
 * items singular): an image's URL is a CDN address, not the webhook URL another `url` shows.
 */
const IN_CONTEXT: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ['ImageAsset.url', 'https://cdn.example.com/images/3f9a0c2e/6740f1a2c3d4e5f637386ae0.png'],
  ['ImageAsset.filename', 'gala.png'],
  ['ImageAsset.createdAt', Date.parse(WHEN)],
  ['ImageAsset.lastPublishedAt', null],
  ['ImageUpload.filename', 'gala.png'],
  // Pending: the image exists once the upload completes.
  ['ImageUpload.imageId', null],
  ['upload.headers', { 'Content-Type': 'image/png', 'Content-Length': '184320' }],
  ['upload.url', 'https://uploads.s3.amazonaws.com/6740f1a2c3d4e5f637386ae0?X-Amz-Signature=5b1f'],
  ['customFee.name', 'Service fee'],
  ['lineItem.description', 'Spring Gala ticket'],
  ['WebhookEndpoint.description', 'Paid invoices to the CRM.'],
  ['Property.description', 'Shirt size for the welcome pack.'],
]);

/** When the resources were made, in every resource example. */
const MADE = '2027-04-17T19:00:00Z';

/** A stored element, as every answer shows one (with its id), and the changes of the element routes start from. */
const STORED_ELEMENT = { id: '6740f1a2c3d4e5f601234568', type: 'Select One', prompt: 'T-shirt size', options: ['S', 'M', 'L'], required: true };

/**
 * Whole examples of the resources whose fields depend on one another (totals and payments, a price and
 * `minPrice`, `options` only on a select property), written by hand: built field by field, they said a
 * draft invoice had a number and a total of 1. Used wherever the document answers one.
 */
const RESOURCE_EXAMPLES: Readonly<Record<string, unknown>> = {
  // Finalized and half paid: 2 x 25.00, one manual payment of 25.00.
  Invoice: {
    id: '6740f1a2c3d4e5f637386ae0', hostId: '6740f1a2c3d4e5f65c71ac82', customerId: '6740f1a2c3d4e5f6cd9469fc',
    number: 'INV-000042', currency: 'USD',
    lineItems: [{ description: 'Spring Gala ticket', quantity: 2, unitAmount: 2500, eventId: '6740f1a2c3d4e5f64a1b2c3d' }],
    payments: [{ id: '6740f1a2c3d4e5f6a7c488a4', status: 'succeeded', amount: 2500, amountRefunded: 0, paidAt: MADE, idempotencyKey: STRINGS.idempotencyKey, method: 'manual', refunds: [] }],
    subtotal: 5000, taxTotal: 0, total: 5000, amountPaid: 2500, amountRefunded: 0, amountDue: 2500,
    status: 'open', autoCharge: false, taxIds: [], issuedAt: MADE, version: 3, createdAt: MADE, updatedAt: MADE,
  },
  Property: {
    id: '6740f1a2c3d4e5f637386ae0', type: 'Select One', name: 'T-shirt size', description: 'Shirt size for the welcome pack.', status: 'active',
    objectType: 'ticket', options: [{ value: 's', label: 'Small' }, { value: 'm', label: 'Medium' }, { value: 'l', label: 'Large' }],
    version: 1, createdAt: MADE, updatedAt: MADE,
  },
  Form: {
    id: '6740f1a2c3d4e5f601234567', name: 'Spring Gala RSVP', status: 'active', submitButtonText: 'Send', submitButtonWidth: 'auto',
    ownerId: '6740f1a2c3d4e5f6e51b6a79', type: 'standalone', isEventForm: false,
    elements: [STORED_ELEMENT],
    rows: [{ columns: [{ elementIndex: 0, widthFraction: 1 }] }], attendeeRowsStart: 1, version: 2, createdAt: MADE, updatedAt: MADE,
  },
  // An element as answers show it: stored, so with its id (a body that adds one has none).
  FormElementOutput: STORED_ELEMENT,
  Event: {
    id: '6740f1a2c3d4e5f64a1b2c3d', name: 'Spring Gala 2027', start: '2027-06-01T18:00:00Z', end: '2027-06-01T23:00:00Z', type: 'event',
    status: 'published', visibility: 'public',
    products: [{ id: '6740f1a2c3d4e5f696965701', name: 'General admission', price: 2500, required: true, currency: 'USD' }],
    minPrice: 2500, maxPrice: 2500, description: 'Dinner and live music.', currency: 'USD', version: 1, createdAt: MADE, updatedAt: MADE,
  },
};

/** The value `IN_CONTEXT` gives the field `key` of `owner` inside `parent`, if any. */
function inContext(owner: string | undefined, parent: string | undefined, key: string | undefined): { value: unknown } | undefined {
  if (key === undefined) return undefined;
  for (const scope of [resourceOf(owner), parent]) {
    const name = `${scope}.${key}`;
    if (scope !== undefined && IN_CONTEXT.has(name)) return { value: IN_CONTEXT.get(name) };
  }
  return undefined;
}

/** Values for number fields, by field name (money in cents). */
const NUMBERS: Readonly<Record<string, number>> = {
  amount: 2500, amountDue: 5000, amountPaid: 5000, amountRefunded: 0, unitAmount: 2500, price: 2500, subtotal: 5000,
  total: 1, taxAmount: 0, taxTotal: 0, fees: 150, gross: 5000, net: 4850, platformFee: 100, processorFee: 50,
  balance: 4850, refundedAmount: 0, minPrice: 2500, maxPrice: 2500, pwycMin: 500, quantity: 2, version: 1,
  page: 0, limit: 20, pageNumber: 0, pageSize: 20, attempts: 1, lastStatusCode: 200, dueInDays: 14,
  width: 1200, height: 630, sizeBytes: 184320, maxPerOrder: 10, minPerOrder: 1, maxTicketsPerOrder: 10,
  maxTicketsPerSet: 4, elementIndex: 0, revealedElementIndex: 1, productsCount: 1, account_limit: 100, rate: 0.15,
};

/**
 * Optional fields an example shows besides the required ones: what a caller usually sends and an
 * answer usually has (an answer with every optional field would show a paid payment's failure code).
 */
const SHOWN_OPTIONAL = new Set([
  'description', 'email', 'firstName', 'lastName', 'phone', 'start', 'end', 'currency', 'eventTimezone', 'eventLocation',
  'lineItems', 'customerId', 'dueInDays', 'memo', 'quantity', 'unitAmount', 'amount', 'url', 'enabled', 'options', 'label',
  'prompt', 'required', 'products', 'price',
]);

/** Enum values an example prefers to the first one: a listed event is `published` (the partner listing shows no draft). */
const PREFERRED_ENUM_VALUES: readonly unknown[] = ['published'];

/** Optional fields no example shows: they go only with values the example does not have (`components` needs a bundle). */
const NEVER_SHOWN = new Set(['components']);

interface Context {
  readonly document: Json;
  /** The item schemas of the lists already shown in this example. */
  readonly listed: Set<string>;
}

function resolve(schema: Json, context: Context): Json {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops += 1) {
    const target = current.$ref.replace(/^#\//, '').split('/').reduce<unknown>((node, segment) => (node as Json | undefined)?.[segment], context.document);
    current = isObject(target) ? target : {};
  }
  return current;
}

function stringExample(schema: Json, key: string | undefined): string {
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : undefined;
  const fits = (value: string) =>
    (!pattern || pattern.test(value)) && value.length >= ((schema.minLength as number | undefined) ?? 0) && value.length <= ((schema.maxLength as number | undefined) ?? Infinity);
  const candidates = [
    schema.pattern === '^[a-f0-9]{24}$' || /(^id$|Id$|_id$)/.test(key ?? '') ? idFor(key) : undefined,
    typeof schema.example === 'string' ? schema.example : undefined,
    schema.format === 'date-time' ? WHEN : undefined,
    schema.format === 'date' ? WHEN.slice(0, 10) : undefined,
    schema.format === 'email' ? 'ada@example.com' : undefined,
    schema.format === 'uri' ? STRINGS[key ?? ''] ?? 'https://example.com/spring-gala' : undefined,
    key !== undefined ? STRINGS[key] : undefined,
    key !== undefined && /At$/.test(key) ? WHEN : undefined,
    'Spring Gala',
    'spring-gala',
    'a',
  ];
  return candidates.find((value): value is string => value !== undefined && fits(value)) ?? 'a'.repeat(Math.max(1, (schema.minLength as number | undefined) ?? 1));
}

function numberExample(schema: Json, key: string | undefined): number {
  let value = typeof schema.default === 'number' ? schema.default : (key !== undefined ? NUMBERS[key] : undefined) ?? 1;
  if (typeof schema.minimum === 'number') value = Math.max(value, schema.minimum);
  if (typeof schema.maximum === 'number') value = Math.min(value, schema.maximum);
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) value = schema.exclusiveMinimum + 1;
  return schema.type === 'integer' ? Math.round(value) : value;
}

/**
 * An example value of `input` (a JSON schema of the document), `key` being the field it fills, in the
 * component schema `owner` and the object field `parent`.
 */
export function exampleOf(input: Json, context: Context, key?: string, depth = 0, owner?: string, parent?: string): unknown {
  const schema = resolve(input, context);
  if (depth > 12) return undefined;
  const given = inContext(owner, parent, key);
  if (given) return given.value;
  const resource = componentName(input.$ref);
  if (resource !== undefined && RESOURCE_EXAMPLES[resource] !== undefined) return structuredClone(RESOURCE_EXAMPLES[resource]);
  // A field's own schema may be a component (`url: {$ref: Uri}`): the object it is in stays its owner.
  const within = resource !== undefined && isObject(schema.properties) ? resource : owner;
  if ('example' in schema && schema.example !== undefined && schema.type !== 'string') return schema.example;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return PREFERRED_ENUM_VALUES.find((value) => (schema.enum as unknown[]).includes(value)) ?? schema.enum.find((value) => value !== null) ?? schema.enum[0];
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) {
      const branch = (branches as Json[]).find((candidate) => resolve(candidate, context).type !== 'null') ?? (branches[0] as Json);
      return exampleOf(branch, context, key, depth + 1, within, parent);
    }
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...(schema.allOf as Json[]).map((part) => exampleOf(part, context, key, depth + 1, within, parent)));
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((candidate) => candidate !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return stringExample(schema, key);
    case 'integer':
    case 'number':
      return numberExample(schema, key);
    case 'boolean':
      // `hasMore` beside a `nextCursor`: a list example shows a page that has a next one.
      return typeof schema.default === 'boolean' ? schema.default : key === 'enabled' || key === 'required' || key === 'hasMore';
    case 'null':
      return null;
    case 'array': {
      if (!isObject(schema.items)) return [];
      // A list of what the example already shows once (the orders of each balance bucket) is left empty.
      const shape = JSON.stringify(schema.items);
      if (context.listed.has(shape) && !((schema.minItems as number | undefined) ?? 0)) return [];
      context.listed.add(shape);
      const count = Math.max(1, (schema.minItems as number | undefined) ?? 1);
      return Array.from({ length: count }, () => exampleOf(schema.items as Json, context, key?.replace(/s$/, ''), depth + 1, within, parent));
    }
    default: {
      if (!isObject(schema.properties)) return {};
      const required = new Set((schema.required ?? []) as string[]);
      const entries = Object.entries(schema.properties as Record<string, Json>)
        .filter(([name]) => required.has(name) || (!NEVER_SHOWN.has(name) && SHOWN_OPTIONAL.has(name)))
        .map(([name, child]) => [name, exampleOf(child, context, name, depth + 1, within, key)] as const)
        .filter(([, value]) => value !== undefined);
      return Object.fromEntries(entries);
    }
  }
}

/** Examples written by hand where the schema alone cannot give a meaningful one, by operation id. */
export const EXAMPLE_OVERRIDES: Readonly<Record<string, { readonly request?: unknown; readonly response?: unknown }>> = {
  // The body takes every type's fields; an example with `options` would be refused by a Text element.
  updateFormElement: { request: { prompt: 'What is your name?', required: true } },
  // A usual change, and a harmless one: an example that sent `products` would replace the event's products.
  updateEvent: { request: { status: 'published', visibility: 'public' } },
  // A draft's usual revision; the create body it could take again names a customer of its own.
  reviseInvoice: { request: { notes: 'Table for 8, dinner included.', dueAt: '2027-05-31T23:59:00Z' } },
  // What each change makes of the element: the Other option turned on, a logic group added to the source.
  toggleElementOther: {
    response: { data: { ...STORED_ELEMENT, type: 'Select One or "Other"', otherPrompt: 'Other (please specify)' } },
  },
  addLogicRule: {
    response: { data: { ...STORED_ELEMENT, logicGroups: [{ revealedElementIndex: 1, optionIndices: [0, -1], operator: 'any_of' }] } },
  },
};

/**
 * Adds `example` to every JSON request body and JSON 2xx answer of `document` that has none: the
 * operation's override, else one built from its schema.
 */
export function addExamples(document: Json): void {
  for (const item of Object.values((document.paths ?? {}) as Json)) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      const override = EXAMPLE_OVERRIDES[operation.operationId as string];
      const body = isObject(operation.requestBody) ? (operation.requestBody.content as Json | undefined)?.['application/json'] : undefined;
      if (isObject(body) && isObject(body.schema) && body.example === undefined) {
        body.example = override?.request ?? exampleOf(body.schema, { document, listed: new Set() });
      }
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Json)) {
        if (!/^2\d\d$/.test(status) || !isObject(response)) continue;
        const media = (response.content as Json | undefined)?.['application/json'];
        if (isObject(media) && isObject(media.schema) && media.example === undefined) {
          media.example = override?.response ?? exampleOf(media.schema, { document, listed: new Set() });
        }
      }
    }
  }
}
