import type { Page, PageRequest } from '../db/query.js';
import { readModifyWrite } from '../db/read-modify-write.js';
import { NotFoundError } from '../errors.js';
import { PROPERTY_ROUND_TRIP, type NewPropertyInput, type Property, type PropertyPatch } from './property-model.js';
import { checkEchoed, dropEchoed } from '../model/round-trip.js';
import { applyPropertyPatch, buildProperty } from './property-rules.js';
import { createProperty, getProperty, listProperties, saveProperty, type PropertyListQuery } from './properties-repository.js';

/** Creates a property; the name must be free within its objectType (409 otherwise). */
export async function createPropertyInWorkspace(workspaceId: string, input: NewPropertyInput): Promise<Property> {
  const property = buildProperty(dropEchoed(input, PROPERTY_ROUND_TRIP));
  await createProperty(workspaceId, property);
  return property;
}

/** Reads a property of the workspace or throws a NotFoundError (also for another workspace's id). */
export async function requireProperty(workspaceId: string, id: string): Promise<Property> {
  const property = await getProperty(workspaceId, id);
  if (!property) throw new NotFoundError('Property');
  return property;
}

export async function listPropertiesOfWorkspace(workspaceId: string, query: PropertyListQuery, request: PageRequest): Promise<Page<Property>> {
  return listProperties(workspaceId, query, request);
}

/**
 * Updates a property under optimistic concurrency (`readModifyWrite`): with `ifMatch`, a version other
 * than the current one is a 409; without it, a write that lost a race re-reads and re-applies the
 * patch, so concurrent updates are all kept. A patch that changes nothing writes nothing.
 */
export async function updateProperty(workspaceId: string, id: string, patch: PropertyPatch, ifMatch?: number): Promise<Property> {
  return readModifyWrite({
    resource: 'property',
    ifMatch,
    read: async () => {
      const current = await getProperty(workspaceId, id, { consistent: true });
      if (!current) throw new NotFoundError('Property');
      return current;
    },
    write: async (current) => {
      const next = applyPropertyPatch(current, checkEchoed(current, patch, PROPERTY_ROUND_TRIP));
      if (!next) return current;
      await saveProperty(workspaceId, current, next);
      return next;
    },
  });
}
