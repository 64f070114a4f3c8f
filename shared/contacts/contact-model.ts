import * as z from 'zod';
import type { PartitionQuery } from '../db/query.js';
import { creationOrderKey, entityAttribute, itemKey, type ItemKey } from '../db/table-design.js';
import { dateTimeSchema, idSchema, versionSchema, pickFields, type SortDirection } from '../model/primitives.js';
import { echoedFields, type RoundTrip } from '../model/round-trip.js';
import { isEmail } from '../properties/property-values.js';
import { lazy } from '../model/lazy-schema.js';

/**
 * The contact model: the schemas of the stored and returned contact and of the inputs that change
 * it, their types, the keys of every contact item and the item <-> object mappers. Routes build their
 * request and response schemas from these; nothing here knows about HTTP.
 */

export const CONTACT_STATUSES = ['opted-in', 'unsubscribed'] as const;

const emailSchema = lazy(() => z.string().trim().max(254).refine(isEmail, 'must be an email address').meta({
  description: 'Unique per workspace, case-insensitively.',
  example: 'ada@example.com',
}));
const nameSchema = lazy(() => z.string().trim().min(1).max(200));
const phoneSchema = lazy(() => z.string().trim().min(1).max(50));
/**
 * The contact's own rule for each text field a form question can set (`contactField`): a public
 * submission's answer must pass it, so a contact written from a form always reads back into a valid
 * update (API.md "Round trips and references"). `status` is not here: its answer is a Yes/No.
 */
export const CONTACT_FIELD_SCHEMAS: Readonly<Record<'email' | 'firstName' | 'lastName' | 'phone', z.ZodType>> = {
  email: emailSchema, firstName: nameSchema, lastName: nameSchema, phone: phoneSchema,
};
const contactStatusSchema = lazy(() => z.enum(CONTACT_STATUSES).meta({ description: 'Marketing consent.' }));
const paymentMethodSchema = lazy(() => z.string().trim().min(1).max(255).meta({
  description: 'Token of the saved card at the payment processor. Sandbox tokens: `pm_card_visa` (succeeds), `pm_card_chargeDeclined`, `pm_card_authenticationRequired`.',
  example: 'pm_card_visa',
}));
/** zod's record drops an own `__proto__` key silently; it names no property, so it is refused like any unknown id. */
const refuseProtoKey = (input: unknown, ctx: z.core.$RefinementCtx): unknown => {
  if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__')) {
    ctx.addIssue({ code: 'custom', message: 'There is no property with the id "__proto__" in this workspace.', path: ['__proto__'], input });
  }
  return input;
};
const propertyValuesSchema = lazy(() => z
  .preprocess(refuseProtoKey, z.record(z.string(), z.unknown()))
  .refine((values) => Object.keys(values).length <= 100, 'at most 100 property values per request')
  .meta({
    description: 'Values of contact CRM properties keyed by property id; each is validated against the property\'s type and options.',
    example: { '6740f1a2c3d4e5f601234567': 'm' },
  }));

export const contactSchema = lazy(() => z
  .object({
    id: idSchema,
    email: z.string(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    phone: z.string().optional(),
    status: contactStatusSchema.optional(),
    /** Token of the saved card at the payment processor, e.g. `pm_card_visa`. */
    defaultPaymentMethod: z.string().optional(),
    /** Values of contact CRM properties, keyed by property id. */
    properties: z.record(z.string(), z.unknown()),
    version: versionSchema,
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  })
  .meta({ id: 'Contact', description: 'A CRM contact: a person the workspace sells to or collects data from.' }));

/** What a contact's GET returns that its writes do not set (API.md "Round trips and references"). */
export const CONTACT_ROUND_TRIP: RoundTrip = { resource: 'contact', readOnly: { id: undefined, createdAt: undefined }, derived: ['updatedAt'] };

export const createContactBodySchema = lazy(() => z
  .strictObject({
    ...echoedFields(contactSchema.shape, CONTACT_ROUND_TRIP, 'create'),
    email: emailSchema,
    firstName: nameSchema.optional(),
    lastName: nameSchema.optional(),
    phone: phoneSchema.optional(),
    status: contactStatusSchema.optional(),
    defaultPaymentMethod: paymentMethodSchema.optional(),
    properties: propertyValuesSchema.optional(),
  })
  .meta({ id: 'CreateContact', example: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', status: 'opted-in', defaultPaymentMethod: 'pm_card_visa' } }));

export const updateContactBodySchema = lazy(() => z
  .strictObject({
    ...echoedFields(contactSchema.shape, CONTACT_ROUND_TRIP, 'update'),
    email: emailSchema.optional(),
    firstName: nameSchema.nullable().optional(),
    lastName: nameSchema.nullable().optional(),
    phone: phoneSchema.nullable().optional(),
    status: contactStatusSchema.nullable().optional(),
    defaultPaymentMethod: paymentMethodSchema.nullable().optional(),
    properties: propertyValuesSchema.optional().meta({ description: 'Merged into the stored values key by key; a `null` value removes that property\'s value.' }),
  })
  .meta({ id: 'UpdateContact', description: 'Only the fields sent change; `null` removes an optional field.', example: { phone: '+44 20 7946 0000', status: 'unsubscribed' } }));

export type ContactStatus = (typeof CONTACT_STATUSES)[number];
export type Contact = z.infer<typeof contactSchema>;
/** What a client may send to create a contact. */
export type NewContactInput = z.infer<typeof createContactBodySchema>;
/**
 * What a client may send to update a contact: absent fields stay, `null` removes an optional field;
 * `properties` is merged key by key and a `null` value removes that property's value.
 */
export type ContactPatch = z.infer<typeof updateContactBodySchema>;

export const CONTACT_ENTITY = 'Contact';
export const CONTACT_EMAIL_GUARD_ENTITY = 'ContactEmailGuard';

/** Emails are unique case-insensitively, so the guard is keyed on this normal form. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Key builders: the only place contact keys are spelled.
 * - contact: `WS#<ws>#CONTACT` / `<id>`, listed by creation time through `byCreatedAt` (GSI3: the same
 *   partition, `<createdAt>#<id>`).
 * - email guard: `WS#<ws>#CONTACTEMAIL` / `<lower(email)>`, holding `contactId`: its existence makes
 *   the email unique, a Query on that one key finds a contact by email, and a Query on the
 *   partition lists contacts in email order.
 */
export const contactKeys = {
  contactPartition: (workspaceId: string) => `WS#${workspaceId}#CONTACT`,
  contact: (workspaceId: string, id: string): ItemKey => itemKey(contactKeys.contactPartition(workspaceId), id),
  emailGuardPartition: (workspaceId: string) => `WS#${workspaceId}#CONTACTEMAIL`,
  emailGuard: (workspaceId: string, email: string): ItemKey => itemKey(contactKeys.emailGuardPartition(workspaceId), normalizeEmail(email)),
};

export function toContactItem(workspaceId: string, contact: Contact): Record<string, unknown> {
  const key = contactKeys.contact(workspaceId, contact.id);
  return { ...key, ...creationOrderKey(key, contact.createdAt, contact.id), ...entityAttribute(CONTACT_ENTITY), ...contact };
}

/** The guard that reserves a contact's email (and points back at the contact). */
export function toEmailGuardItem(workspaceId: string, contact: Contact): Record<string, unknown> {
  return { ...contactKeys.emailGuard(workspaceId, contact.email), ...entityAttribute(CONTACT_EMAIL_GUARD_ENTITY), contactId: contact.id };
}

/** Maps a stored item back to the public shape, dropping key attributes and absent optionals. */
export function fromContactItem(item: Record<string, unknown>): Contact {
  return { ...pickFields<Contact>(item, contactSchema), properties: (item.properties as Contact['properties'] | undefined) ?? {} };
}

/** The contact an email guard points at. */
export function guardedContactId(item: Record<string, unknown>): string | undefined {
  return typeof item.contactId === 'string' ? item.contactId : undefined;
}

export type ContactSort = 'createdAt' | 'email';

/**
 * The partition that holds the contacts of a list, in the order of `sort`: the contact partition
 * (creation order), or the email guards (email order, then one BatchGet of the page's contacts). The
 * `email` filter is the one guard of that email, whatever the sort.
 */
export function contactListQuery(workspaceId: string, filter: { email?: string | undefined }, sort: ContactSort, direction: SortDirection): { query: PartitionQuery; viaGuards: boolean } {
  const ascending = direction === 'asc';
  if (filter.email !== undefined) {
    const email = normalizeEmail(filter.email);
    return { viaGuards: true, query: { partition: contactKeys.emailGuardPartition(workspaceId), range: { between: [email, email] }, ascending } };
  }
  if (sort === 'email') return { viaGuards: true, query: { partition: contactKeys.emailGuardPartition(workspaceId), ascending } };
  return { viaGuards: false, query: { index: 'byCreatedAt', partition: contactKeys.contactPartition(workspaceId), ascending } };
}
