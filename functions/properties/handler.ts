import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import { createProperty } from './create-property.js';
import { getProperty } from './get-property.js';
import { listProperties } from './list-properties.js';
import { updateProperty } from './update-property.js';

export const operations = [createProperty, listProperties, getProperty, updateProperty];
export const handler = createGroupHandler('properties', operations, { idempotency: runIdempotent });
