import * as z from 'zod';
import { contactSchema, createContactBodySchema, updateContactBodySchema } from '../../contacts/contact-model.js';
import { defineRoute } from '../route.js';
import { cursorListQuery, cursorListResponse, dataResponse, idParams } from '../schemas.js';
import { lazy } from '../../model/lazy-schema.js';

export const contactListQuerySchema = lazy(() => cursorListQuery(['createdAt', 'email'], 'createdAt', {
  email: z.string().trim().min(1).max(254).optional().meta({ description: 'Exact email, case-insensitive: at most one contact matches.' }),
}));

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
    success: { status: 201, description: 'The new contact.', schema: lazy(() => dataResponse(contactSchema)) },
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
    description: 'Generic list; `sort=email` is case-insensitive, and `email` filters to the one contact with that email. Every sort and filter is served by an index: a page costs the same at any depth.',
    query: contactListQuerySchema,
    success: { status: 200, description: 'One page of contacts.', schema: lazy(() => cursorListResponse(contactSchema)) },
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
    params: lazy(() => idParams('id')),
    success: { status: 200, description: 'The contact.', schema: lazy(() => dataResponse(contactSchema)) },
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
    description: 'Only the fields sent change; `null` removes an optional field; `properties` is merged. An email change frees the old email.',
    params: lazy(() => idParams('id')),
    body: updateContactBodySchema,
    success: { status: 200, description: 'The full contact after the update.', schema: lazy(() => dataResponse(contactSchema)) },
    errors: [400, 403, 404, 409, 422],
  }),
};
