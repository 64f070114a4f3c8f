import { jitteredBackoff, retrying } from '../db/retry.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { getPropertiesByIds } from '../properties/properties-repository.js';
import type { Contact } from './contact-entity.js';
import {
  applyContactPatch, buildContact, contactPropertyIssues, propertyIdsToRead, type ContactPatch, type NewContactInput,
} from './contact-rules.js';
import {
  ContactVersionConflictError, ContactWriteContentionError, createContact, getContact, listContacts, saveContact, type ContactListQuery,
} from './contacts-repository.js';

const MAX_UPDATE_ATTEMPTS = 30;

/** Validates property values with one batch read of their definitions, never one read per property. */
async function assertValidPropertyValues(workspaceId: string, values: Record<string, unknown> | undefined): Promise<void> {
  const ids = propertyIdsToRead(values);
  const properties = ids.length > 0 ? await getPropertiesByIds(workspaceId, ids) : new Map();
  const issues = contactPropertyIssues(values, properties);
  if (issues.length > 0) throw new ValidationError(issues);
}

/** Creates a contact; the email must be free in the workspace (409 otherwise). */
export async function createContactInWorkspace(workspaceId: string, input: NewContactInput): Promise<Contact> {
  await assertValidPropertyValues(workspaceId, input.properties);
  const contact = buildContact(input);
  await withContentionRetry(() => createContact(workspaceId, contact));
  return contact;
}

/** Reads a contact of the workspace or throws a NotFoundError (also for another workspace's id). */
export async function requireContact(workspaceId: string, id: string): Promise<Contact> {
  const contact = await getContact(workspaceId, id);
  if (!contact) throw new NotFoundError('Contact');
  return contact;
}

export async function listContactsOfWorkspace(workspaceId: string, query: ContactListQuery) {
  return listContacts(workspaceId, query);
}

/** Retries a write that DynamoDB cancelled for contention (nothing was written); other errors pass. */
function withContentionRetry(write: () => Promise<void>): Promise<void> {
  return retrying(write, (error) => error instanceof ContactWriteContentionError, 5);
}

/**
 * Updates a contact with optimistic concurrency: stale `ifMatch` is a 409; without it a lost race
 * re-reads and re-applies the patch, so concurrent updates are all kept.
 */
export async function updateContact(workspaceId: string, id: string, patch: ContactPatch, ifMatch?: number): Promise<Contact> {
  for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt += 1) {
    const current = await getContact(workspaceId, id, { consistent: true });
    if (!current) throw new NotFoundError('Contact');
    // Validated after the first read so that an unknown contact is a 404 whatever the body says.
    if (attempt === 0) await assertValidPropertyValues(workspaceId, patch.properties);
    if (ifMatch !== undefined && current.version !== ifMatch) {
      throw new ConflictError(`If-Match version ${ifMatch} is stale: the contact is at version ${current.version}.`);
    }
    const next = applyContactPatch(current, patch);
    if (!next) return current;
    try {
      await saveContact(workspaceId, current, next);
      return next;
    } catch (error) {
      // Contention wrote nothing: retry even with If-Match (the re-read tells whether it went stale).
      const retryable = error instanceof ContactWriteContentionError || (error instanceof ContactVersionConflictError && ifMatch === undefined);
      if (!retryable) throw error;
      await jitteredBackoff(attempt);
    }
  }
  throw new ConflictError('The contact is being modified by too many requests at once. Retry the request.');
}
