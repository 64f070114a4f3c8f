import type { Page, PageRequest } from '../db/query.js';
import { readModifyWrite } from '../db/read-modify-write.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { getPropertiesByIds } from '../properties/properties-repository.js';
import { CONTACT_ROUND_TRIP, type Contact, type ContactPatch, type NewContactInput } from './contact-model.js';
import { checkEchoed, dropEchoed } from '../model/round-trip.js';
import { applyContactPatch, buildContact, changedPropertyValues, contactPropertyIssues, propertyIdsToRead } from './contact-rules.js';
import { createContact, getContact, listContacts, saveContact, type ContactListQuery } from './contacts-repository.js';

/** Validates property values with one batch read of their definitions, never one read per property. */
async function assertValidPropertyValues(workspaceId: string, values: Record<string, unknown> | undefined): Promise<void> {
  const ids = propertyIdsToRead(values);
  const properties = ids.length > 0 ? await getPropertiesByIds(workspaceId, ids) : new Map();
  const issues = contactPropertyIssues(values, properties);
  if (issues.length > 0) throw new ValidationError(issues);
}

/** Creates a contact; the email must be free in the workspace (409 otherwise). */
export async function createContactInWorkspace(workspaceId: string, body: NewContactInput): Promise<Contact> {
  const input = dropEchoed(body, CONTACT_ROUND_TRIP);
  await assertValidPropertyValues(workspaceId, input.properties);
  const contact = buildContact(input);
  await createContact(workspaceId, contact);
  return contact;
}

/** Reads a contact of the workspace or throws a NotFoundError (also for another workspace's id). */
export async function requireContact(workspaceId: string, id: string): Promise<Contact> {
  const contact = await getContact(workspaceId, id);
  if (!contact) throw new NotFoundError('Contact');
  return contact;
}

export async function listContactsOfWorkspace(workspaceId: string, query: ContactListQuery, request: PageRequest): Promise<Page<Contact>> {
  return listContacts(workspaceId, query, request);
}

/**
 * Updates a contact under optimistic concurrency (`readModifyWrite`): a stale `ifMatch` is a 409;
 * without it a lost race re-reads and re-applies the patch, so concurrent updates are all kept. A
 * patch that changes nothing writes nothing.
 */
export async function updateContact(workspaceId: string, id: string, patch: ContactPatch, ifMatch?: number): Promise<Contact> {
  // Property ids whose patch value is already validated: a retry after a lost race checks only what
  // the re-read contact makes new to check.
  const validated = new Set<string>();
  return readModifyWrite({
    resource: 'contact',
    ifMatch,
    read: async () => {
      const current = await getContact(workspaceId, id, { consistent: true });
      if (!current) throw new NotFoundError('Contact');
      // Validated after the read so that an unknown contact is a 404 whatever the body says. A value
      // equal to the contact's stored one is kept as is, not validated again (it may predate an option rename).
      const unchecked = Object.fromEntries(Object.entries(changedPropertyValues(patch.properties, current.properties))
        .filter(([propertyId]) => !validated.has(propertyId)));
      await assertValidPropertyValues(workspaceId, unchecked);
      for (const propertyId of Object.keys(unchecked)) validated.add(propertyId);
      return current;
    },
    write: async (current) => {
      const next = applyContactPatch(current, checkEchoed(current, patch, CONTACT_ROUND_TRIP));
      if (!next) return current;
      await saveContact(workspaceId, current, next);
      return next;
    },
  });
}
