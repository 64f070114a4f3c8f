import {
  createPropertyBodySchema, objectTypeSchema, propertySchema, propertyStatusSchema, updatePropertyBodySchema,
} from '../../properties/property-model.js';
import { lazy } from '../../model/lazy-schema.js';
import { defineRoute } from '../route.js';
import { cursorListQuery, cursorListResponse, dataResponse, idParams } from '../schemas.js';

export const propertyListQuerySchema = lazy(() => cursorListQuery(['createdAt', 'name', 'updatedAt'], 'createdAt', {
  objectType: objectTypeSchema.optional(),
  status: propertyStatusSchema.optional(),
}));


export const propertiesRoutes = {
  createProperty: defineRoute({
    group: 'properties',
    operation: 'createProperty',
    method: 'POST',
    path: '/v1/properties',
    auth: 'key',
    tags: ['Properties'],
    summary: 'Create a CRM property',
    description: 'Creates a property at version 1 (`active` by default). A name already used by a property of the same objectType (case-insensitively, archived ones included) is 409 `conflict`.',
    body: createPropertyBodySchema,
    success: { status: 201, description: 'The new property.', schema: lazy(() => dataResponse(propertySchema)) },
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
    description: 'Generic list. `sort=name` is case-insensitive (ties across objectTypes in objectType order). Every sort and filter is served by an index: a page costs the same at any depth.',
    query: propertyListQuerySchema,
    success: { status: 200, description: 'One page of properties.', schema: lazy(() => cursorListResponse(propertySchema)) },
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
    params: lazy(() => idParams('id')),
    success: { status: 200, description: 'The property.', schema: lazy(() => dataResponse(propertySchema)) },
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
    description: `Only the fields sent change. \`type\` and \`objectType\` are immutable (422). Archive with \`status: "archived"\`, restore with \`status: "active"\`. A rename frees the old name.`,
    params: lazy(() => idParams('id')),
    body: updatePropertyBodySchema,
    success: { status: 200, description: 'The full property after the update.', schema: lazy(() => dataResponse(propertySchema)) },
    errors: [400, 403, 404, 409, 422],
  }),
};
