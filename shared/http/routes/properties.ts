import * as z from 'zod';
import { OBJECT_TYPES, PROPERTY_STATUSES, PROPERTY_TYPES } from '../../properties/property-entity.js';
import { defineRoute } from '../route.js';
import { dataResponse, dateTimeSchema, idParams, idSchema, listQuery, listResponse } from '../schemas.js';

export const propertyTypeSchema = z.enum(PROPERTY_TYPES).meta({ id: 'PropertyType', description: 'Data type of the property values. Immutable.' });
export const objectTypeSchema = z.enum(OBJECT_TYPES).meta({
  id: 'PropertyObjectType',
  description: 'The object the property describes (`ticket` = one product within an order). Immutable.',
});
export const propertyStatusSchema = z.enum(PROPERTY_STATUSES).meta({
  description: '`archived` properties stay valid where referenced but should not be used in new forms; they can be restored to `active`.',
});

export const propertyOptionSchema = z
  .strictObject({
    value: z.string().min(1).max(200).meta({ description: 'Stored identity of the option; unique within the property.' }),
    label: z.string().min(1).max(200).meta({ description: 'Display text. Rename an option by changing its label only.' }),
  })
  .meta({ id: 'PropertyOption' });

const propertyNameSchema = z.string().trim().min(1).max(200).meta({
  description: 'Unique among the properties of the same objectType, case-insensitively.',
  example: 'T-shirt size',
});
const descriptionSchema = z.string().max(2000);
const optionsSchema = z.array(propertyOptionSchema).max(500).meta({
  description: 'Required (at least one, unique `value`) for `Select One` and `Select Multiple`; forbidden for every other type.',
});

export const propertySchema = z
  .object({
    id: idSchema,
    type: propertyTypeSchema,
    name: z.string(),
    description: z.string().optional(),
    status: propertyStatusSchema,
    objectType: objectTypeSchema,
    options: z.array(propertyOptionSchema).optional().meta({ description: 'Present only for `Select One` and `Select Multiple`.' }),
    version: z.number().int().meta({ description: 'Optimistic-concurrency version; send it as `If-Match` on update.' }),
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  })
  .meta({ id: 'Property', description: 'A CRM property: a typed field hosts keep on events, orders, tickets or contacts.' });

export const createPropertyBodySchema = z
  .strictObject({
    type: propertyTypeSchema,
    name: propertyNameSchema,
    objectType: objectTypeSchema,
    description: descriptionSchema.optional(),
    options: optionsSchema.optional(),
  })
  .meta({
    id: 'CreateProperty',
    example: { type: 'Select One', name: 'T-shirt size', objectType: 'ticket', options: [{ value: 's', label: 'Small' }, { value: 'm', label: 'Medium' }] },
  });

const immutable = (field: string) => z
  .never({ error: `${field} cannot be changed after creation.` })
  .optional()
  .meta({ description: `Immutable: sending \`${field}\` is 422 \`validation_failed\`.` });

export const updatePropertyBodySchema = z
  .strictObject({
    name: propertyNameSchema.optional(),
    status: propertyStatusSchema.optional(),
    options: optionsSchema.optional(),
    description: descriptionSchema.nullable().optional().meta({ description: '`null` removes the description.' }),
    type: immutable('type'),
    objectType: immutable('objectType'),
  })
  .meta({ id: 'UpdateProperty', example: { name: 'Shirt size', status: 'archived' } });

export const propertyListQuerySchema = listQuery(['createdAt', 'name', 'updatedAt'], 'createdAt', {
  objectType: objectTypeSchema.optional(),
  status: propertyStatusSchema.optional(),
});

const IF_MATCH_NOTE = 'Send `If-Match: <version>` to update only the version you read (409 `conflict` when stale); without it, concurrent updates are applied one after the other and none is lost.';

export const propertiesRoutes = {
  createProperty: defineRoute({
    group: 'properties',
    operation: 'createProperty',
    method: 'POST',
    path: '/v1/properties',
    auth: 'key',
    tags: ['Properties'],
    summary: 'Create a CRM property',
    description: 'Creates an `active` property at version 1. A name already used by a property of the same objectType (case-insensitively, archived ones included) is 409 `conflict`.',
    body: createPropertyBodySchema,
    success: { status: 201, description: 'The new property.', schema: dataResponse(propertySchema) },
    errors: [400, 403, 409, 422],
  }),
  listProperties: defineRoute({
    group: 'properties',
    operation: 'listProperties',
    method: 'GET',
    path: '/v1/properties',
    auth: 'key',
    tags: ['Properties'],
    summary: 'List CRM properties',
    description: 'Generic list. `sort=createdAt` (default) and `sort=name` (case-insensitive; ties across objectTypes in objectType order) read only as deep as the requested page; `sort=updatedAt` reads all of the workspace\'s properties and sorts them in memory.',
    query: propertyListQuerySchema,
    success: { status: 200, description: 'One page of properties.', schema: listResponse(propertySchema) },
    errors: [400],
  }),
  getProperty: defineRoute({
    group: 'properties',
    operation: 'getProperty',
    method: 'GET',
    path: '/v1/properties/{id}',
    auth: 'key',
    tags: ['Properties'],
    summary: 'Get a CRM property',
    params: idParams('id'),
    success: { status: 200, description: 'The property.', schema: dataResponse(propertySchema) },
    errors: [404],
  }),
  updateProperty: defineRoute({
    ifMatch: true,
    group: 'properties',
    operation: 'updateProperty',
    method: 'PATCH',
    path: '/v1/properties/{id}',
    auth: 'key',
    tags: ['Properties'],
    summary: 'Update a CRM property',
    description: `Only the fields sent change. \`type\` and \`objectType\` are immutable (422). Archive with \`status: "archived"\`, restore with \`status: "active"\`. A rename frees the old name. ${IF_MATCH_NOTE}`,
    params: idParams('id'),
    body: updatePropertyBodySchema,
    success: { status: 200, description: 'The full property after the update.', schema: dataResponse(propertySchema) },
    errors: [400, 403, 404, 409, 422],
  }),
};
