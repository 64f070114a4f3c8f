import { batchGetItems } from '../db/batch-get.js';
import { getItem, versionIs } from '../db/conditional.js';
import { queryPage, type Page, type PageRequest } from '../db/query.js';
import { notExists } from '../db/table-design.js';
import { transaction, type Transaction } from '../db/transaction.js';
import { ConflictError } from '../errors.js';
import type { SortDirection } from '../model/primitives.js';
import { outboxEvents } from '../webhooks/webhook-outbox.js';
import {
  contactKeys, contactListQuery, fromContactItem, guardedContactId, normalizeEmail, toContactItem, toEmailGuardItem,
  type Contact, type ContactSort,
} from './contact-model.js';

/** Another contact of the workspace already has this email (case-insensitively). */
export class ContactEmailTakenError extends ConflictError {
  constructor(email: string) {
    super(`A contact with the email "${email}" already exists (emails are unique per workspace, case-insensitively).`);
  }
}

/**
 * A contact change: a new contact (with its email guard), or the next version of an existing one
 * (conditional on the version read; an email change moves the guard).
 */
export type ContactWrite =
  | { readonly kind: 'create'; readonly contact: Contact }
  | { readonly kind: 'update'; readonly current: Contact; readonly next: Contact };

/**
 * Adds a contact write to a transaction. A taken email fails with `onEmailTaken(email)`: a 409 for
 * the API, a lost race for a public submission (which then merges into the winner); a moved version
 * is a StaleVersionError (readModifyWrite re-reads). A new contact is announced (`contact.created`,
 * the contact as GET returns it) in the same transaction, so every path that creates one (the API,
 * a form submission) emits it, and a refused one emits nothing.
 */
export function addContactWrite(tx: Transaction, workspaceId: string, write: ContactWrite, onEmailTaken: (email: string) => Error): Transaction {
  if (write.kind === 'create') {
    const { contact } = write;
    return tx
      .put(toContactItem(workspaceId, contact), { ...notExists(), onFailed: () => new ConflictError('A contact with this id already exists.') })
      .put(toEmailGuardItem(workspaceId, contact), { ...notExists(), onFailed: () => onEmailTaken(contact.email) })
      .include(outboxEvents(workspaceId, [{ type: 'contact.created', object: fromContactItem(toContactItem(workspaceId, contact)) }], new Date(contact.createdAt)));
  }
  const { current, next } = write;
  tx.put(toContactItem(workspaceId, next), versionIs(current.version, 'contact'));
  if (normalizeEmail(current.email) !== normalizeEmail(next.email)) {
    tx.delete(contactKeys.emailGuard(workspaceId, current.email))
      .put(toEmailGuardItem(workspaceId, next), { ...notExists(), onFailed: () => onEmailTaken(next.email) });
  }
  return tx;
}

const emailTaken = (email: string) => new ContactEmailTakenError(email);

/**
 * One contact of the workspace; another workspace's contact is simply absent. Eventually consistent
 * unless `consistent` (the read of a read-modify-write, which decides on it).
 */
export async function getContact(workspaceId: string, id: string, options: { consistent?: boolean } = {}): Promise<Contact | undefined> {
  const item = await getItem(contactKeys.contact(workspaceId, id), options);
  return item ? fromContactItem(item) : undefined;
}

/** Reads many contacts at once (one BatchGetItem per 100 distinct ids, UnprocessedKeys retried). */
export async function getContactsByIds(workspaceId: string, ids: readonly string[]): Promise<Map<string, Contact>> {
  const keys = [...new Set(ids)].map((id) => contactKeys.contact(workspaceId, id));
  const items = await batchGetItems(keys);
  return new Map(items.map((item) => {
    const contact = fromContactItem(item);
    return [contact.id, contact];
  }));
}

/**
 * The workspace's contact with this email, case-insensitively: two GetItems (guard, contact).
 * `consistent` when a write decides on it (a submission merging into the contact).
 */
export async function findContactByEmail(workspaceId: string, email: string, options: { consistent?: boolean } = {}): Promise<Contact | undefined> {
  const guard = await getItem(contactKeys.emailGuard(workspaceId, email), options);
  const contactId = guard ? guardedContactId(guard) : undefined;
  return contactId === undefined ? undefined : getContact(workspaceId, contactId, options);
}

/**
 * Creates a contact and claims its email in ONE transaction (a taken email is a
 * ContactEmailTakenError, 409); `effects` are committed with it (e.g. events about the new contact).
 */
export async function createContact(workspaceId: string, contact: Contact, effects?: Transaction): Promise<void> {
  const tx = addContactWrite(transaction(), workspaceId, { kind: 'create', contact }, emailTaken);
  if (effects) tx.include(effects);
  await tx.commit();
}

/**
 * Replaces `current` by `next` in ONE transaction, conditional on the version that was read; an
 * email change releases the old guard and claims the new one.
 */
export async function saveContact(workspaceId: string, current: Contact, next: Contact, effects?: Transaction): Promise<void> {
  const tx = addContactWrite(transaction(), workspaceId, { kind: 'update', current, next }, emailTaken);
  if (effects) tx.include(effects);
  await tx.commit();
}

export interface ContactListQuery {
  sort: ContactSort;
  direction: SortDirection;
  email?: string | undefined;
}

/**
 * One page of the workspace's contacts: a Query on the contact partition (creation order) or on the
 * email guards (email order; the `email` filter is the Query of its one guard), then one BatchGet of
 * the page's contacts. One Query per cursor page, whatever the workspace holds.
 */
export async function listContacts(workspaceId: string, list: ContactListQuery, request: PageRequest): Promise<Page<Contact>> {
  const email = list.email === undefined ? undefined : normalizeEmail(list.email);
  const scope = { owner: workspaceId, list: 'contacts', shape: { sort: list.sort, direction: list.direction, email } };
  const { query, viaGuards } = contactListQuery(workspaceId, { email }, list.sort, list.direction);
  const page = await queryPage(query, request, scope);
  if (!viaGuards) return { ...page, items: page.items.map(fromContactItem) };
  const ids = page.items.flatMap((guard) => guardedContactId(guard) ?? []);
  const contacts = await getContactsByIds(workspaceId, ids);
  return { ...page, items: ids.flatMap((id) => contacts.get(id) ?? []) };
}
