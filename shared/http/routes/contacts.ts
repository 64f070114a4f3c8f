import * as z from 'zod';
import { CONTACT_STATUSES } from '../../contacts/contact-entity.js';
import { isEmail } from '../../properties/property-values.js';
import { defineRoute } from '../route.js';
import { dataResponse, dateTimeSchema, idParams, idSchema, listQuery, listResponse } from '../schemas.js';

const emailSchema = z.string().trim().max(254).refine(isEmail, 'must be an email address').meta({
  description: 'Unique per workspace, case-insensitively.',
  example: 'ada@example.com',
});
const nameSchema = z.string().trim().min(1).max(200);
const phoneSchema = z.string().trim().min(1).max(50);
const contactStatusSchema = z.enum(CONTACT_STATUSES).meta({ description: 'Marketing consent.' });
const paymentMethodSchema = z.string().trim().min(1).max(255).meta({
  description: 'Token of the saved card at the payment processor. Sandbox tokens: `pm_card_visa` (succeeds), `pm_card_chargeDeclined`, `pm_card_authenticationRequired`.',
  example: 'pm_card_visa',
});
/** zod's record drops an own `__proto__` key silently; it names no property, so it is refused like any unknown id. */
const refuseProtoKey = (input: unknown, ctx: z.core.$RefinementCtx): unknown => {
  if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__')) {
    ctx.addIssue({ code: 'custom', message: 'There is no property with the id "__proto__" in this workspace.', path: ['__proto__'], input });
  }
  return input;
};
const propertyValuesSchema = z
  .preprocess(refuseProtoKey, z.record(z.string(), z.unknown()))
  .refine((values) => Object.keys(values).length <= 100, 'at most 100 property values per request')
  .meta({
    description: 'Values of contact CRM properties keyed by property id; each is validated against the property\'s type and options.',
    example: { '6740f1a2c3d4e5f601234567': 'm' },
  });

export const contactSchema = z
  .object({
    id: idSchema,
    email: z.string(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    phone: z.string().optional(),
    status: contactStatusSchema.optional(),
    defaultPaymentMethod: z.string().optional(),
    properties: z.record(z.string(), z.unknown()),
    version: z.number().int().meta({ description: 'Optimistic-concurrency version; send it as `If-Match` on update.' }),
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  })
  .meta({ id: 'Contact', description: 'A CRM contact: a person the workspace sells to or collects data from.' });

export const createContactBodySchema = z
  .strictObject({
    email: emailSchema,
    firstName: nameSchema.optional(),
    lastName: nameSchema.optional(),
    phone: phoneSchema.optional(),
    status: contactStatusSchema.optional(),
    defaultPaymentMethod: paymentMethodSchema.optional(),
    properties: propertyValuesSchema.optional(),
  })
  .meta({ id: 'CreateContact', example: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', status: 'opted-in', defaultPaymentMethod: 'pm_card_visa' } });

export const updateContactBodySchema = z
  .strictObject({
    email: emailSchema.optional(),
    firstName: nameSchema.nullable().optional(),
    lastName: nameSchema.nullable().optional(),
    phone: phoneSchema.nullable().optional(),
    status: contactStatusSchema.nullable().optional(),
    defaultPaymentMethod: paymentMethodSchema.nullable().optional(),
    properties: propertyValuesSchema.optional().meta({ description: 'Merged into the stored values key by key; a `null` value removes that property\'s value.' }),
  })
  .meta({ id: 'UpdateContact', description: 'Only the fields sent change; `null` removes an optional field.', example: { phone: '+44 20 7946 0000', status: 'unsubscribed' } });

export const contactListQuerySchema = listQuery(['createdAt', 'email'], 'createdAt', {
  email: z.string().trim().min(1).max(254).optional().meta({ description: 'Exact email, case-insensitive: at most one contact matches.' }),
});

export const contactsRoutes = {
  createContact: defineRoute({
    group: 'contacts',
    operation: 'createContact',
    method: 'POST',
    path: '/v1/contacts',
    auth: 'key',
    tags: ['Contacts'],
    summary: 'Create a contact',
    description: 'An email already used by a contact of the workspace (case-insensitively) is 409 `conflict`. Property values naming an unknown or non-contact property, or breaking its type or options, are 422 with path `properties.<id>`.',
    body: createContactBodySchema,
    success: { status: 201, description: 'The new contact.', schema: dataResponse(contactSchema) },
    errors: [400, 403, 409, 422],
  }),
  listContacts: defineRoute({
    group: 'contacts',
    operation: 'listContacts',
    method: 'GET',
    path: '/v1/contacts',
    auth: 'key',
    tags: ['Contacts'],
    summary: 'List contacts',
    description: 'Generic list, `sort` `createdAt` (default) or `email` (case-insensitive); both read only as deep as the requested page. `email` filters to the one contact with that email.',
    query: contactListQuerySchema,
    success: { status: 200, description: 'One page of contacts.', schema: listResponse(contactSchema) },
    errors: [400],
  }),
  getContact: defineRoute({
    group: 'contacts',
    operation: 'getContact',
    method: 'GET',
    path: '/v1/contacts/{id}',
    auth: 'key',
    tags: ['Contacts'],
    summary: 'Get a contact',
    params: idParams('id'),
    success: { status: 200, description: 'The contact.', schema: dataResponse(contactSchema) },
    errors: [404],
  }),
  updateContact: defineRoute({
    ifMatch: true,
    group: 'contacts',
    operation: 'updateContact',
    method: 'PATCH',
    path: '/v1/contacts/{id}',
    auth: 'key',
    tags: ['Contacts'],
    summary: 'Update a contact',
    description: 'Only the fields sent change; `null` removes an optional field; `properties` is merged. An email change frees the old email. Send `If-Match: <version>` to update only the version you read (409 `conflict` when stale); without it concurrent updates are all kept.',
    params: idParams('id'),
    body: updateContactBodySchema,
    success: { status: 200, description: 'The full contact after the update.', schema: dataResponse(contactSchema) },
    errors: [400, 403, 404, 409, 422],
  }),
};
