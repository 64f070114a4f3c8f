import { jitteredBackoff, retrying } from '../db/retry.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { Property } from './property-entity.js';
import { applyPropertyPatch, buildProperty, type NewPropertyInput, type PropertyPatch } from './property-rules.js';
import {
  PropertyVersionConflictError, PropertyWriteContentionError, createProperty, getProperty, listProperties, saveProperty, type PropertyListQuery,
} from './properties-repository.js';

/** Enough for dozens of simultaneous writers on one property; each round at least one of them wins. */
const MAX_UPDATE_ATTEMPTS = 30;

/** Creates a property; the name must be free within its objectType (409 otherwise). */
export async function createPropertyInWorkspace(workspaceId: string, input: NewPropertyInput): Promise<Property> {
  const property = buildProperty(input);
  await withContentionRetry(() => createProperty(workspaceId, property));
  return property;
}

/** Reads a property of the workspace or throws a NotFoundError (also for another workspace's id). */
export async function requireProperty(workspaceId: string, id: string): Promise<Property> {
  const property = await getProperty(workspaceId, id);
  if (!property) throw new NotFoundError('Property');
  return property;
}

export async function listPropertiesOfWorkspace(workspaceId: string, query: PropertyListQuery) {
  return listProperties(workspaceId, query);
}

/** Retries a write that DynamoDB cancelled for contention (nothing was written); other errors pass. */
function withContentionRetry(write: () => Promise<void>): Promise<void> {
  return retrying(write, (error) => error instanceof PropertyWriteContentionError, 5);
}

/**
 * Updates a property with optimistic concurrency. With `ifMatch`, a version other than the current
 * one is a 409. Without it, a write that lost a race re-reads and re-applies the patch, so
 * concurrent updates are all kept instead of overwriting each other.
 */
export async function updateProperty(workspaceId: string, id: string, patch: PropertyPatch, ifMatch?: number): Promise<Property> {
  for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt += 1) {
    const current = await getProperty(workspaceId, id, { consistent: true });
    if (!current) throw new NotFoundError('Property');
    if (ifMatch !== undefined && current.version !== ifMatch) {
      throw new ConflictError(`If-Match version ${ifMatch} is stale: the property is at version ${current.version}.`);
    }
    const next = applyPropertyPatch(current, patch);
    if (!next) return current;
    try {
      await saveProperty(workspaceId, current, next);
      return next;
    } catch (error) {
      // Contention wrote nothing: retry even with If-Match (the re-read tells whether it went stale).
      const retryable = error instanceof PropertyWriteContentionError || (error instanceof PropertyVersionConflictError && ifMatch === undefined);
      if (!retryable) throw error;
      await jitteredBackoff(attempt);
    }
  }
  throw new ConflictError('The property is being modified by too many requests at once. Retry the request.');
}
