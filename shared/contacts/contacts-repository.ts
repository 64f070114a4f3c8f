import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { failedConditionIndices, isTransactionContention } from '../db/cancellation.js';
import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '../db/batch-get.js';
import { db, tableName } from '../db/client.js';
import { legacyQueryPage as queryPage } from '../db/legacy-query.js';
import { TABLE_KEYS } from '../db/table-design.js';
import { ConflictError } from '../errors.js';
import { CONTACT_EMAIL_GUARD_ENTITY, contactKeys, fromContactItem, normalizeEmail, toContactItem, type Contact } from './contact-entity.js';

/** The contact changed since it was read: the caller re-reads (no If-Match) or answers 409 (If-Match). */
export class ContactVersionConflictError extends ConflictError {
  constructor() {
    super('The contact was modified by another request. Re-read it and retry with the current version.');
  }
}

/**
 * DynamoDB cancelled the transaction because another transaction touched the same items at the same
 * moment (`TransactionConflict`): nothing was written and the same write may simply be retried.
 */
export class ContactWriteContentionError extends ConflictError {
  constructor() {
    super('The contact is being modified by another request at the same moment. Retry the request.');
  }
}

/** Another contact of the workspace already has this email (case-insensitively). */
export class ContactEmailTakenError extends ConflictError {
  constructor(email: string) {
    super(`A contact with the email "${email}" already exists (emails are unique per workspace, case-insensitively).`);
  }
}

function emailGuardItem(workspaceId: string, contact: Contact): Record<string, unknown> {
  return { ...contactKeys.emailGuard(workspaceId, contact.email), [TABLE_KEYS.entityType]: CONTACT_EMAIL_GUARD_ENTITY, contactId: contact.id };
}

/** Reads one contact of the workspace; another workspace's contact is simply absent. */
export async function getContact(workspaceId: string, id: string, options: { consistent?: boolean } = {}): Promise<Contact | undefined> {
  const { Item } = await db.send(new GetCommand({
    TableName: tableName(),
    Key: contactKeys.contact(workspaceId, id),
    ConsistentRead: options.consistent ?? false,
  }));
  return Item ? fromContactItem(Item) : undefined;
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

/** Finds the workspace's contact with this email, case-insensitively: two GetItems (guard, contact). */
export async function findContactByEmail(workspaceId: string, email: string): Promise<Contact | undefined> {
  const { Item: guard } = await db.send(new GetCommand({ TableName: tableName(), Key: contactKeys.emailGuard(workspaceId, email) }));
  if (!guard || typeof guard.contactId !== 'string') return undefined;
  return getContact(workspaceId, guard.contactId);
}

/** Creates a contact and claims its email in one transaction; a taken email is a ContactEmailTakenError. */
export async function createContact(workspaceId: string, contact: Contact): Promise<void> {
  try {
    await db.send(new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: toContactItem(workspaceId, contact),
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: emailGuardItem(workspaceId, contact),
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
          },
        },
      ],
    }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      if (failedConditionIndices(error).includes(1)) throw new ContactEmailTakenError(contact.email);
      if (isTransactionContention(error)) throw new ContactWriteContentionError();
    }
    throw error;
  }
}

/**
 * Replaces `current` by `next`, conditional on the version that was read; an email change releases
 * the old guard and claims the new one in the same transaction.
 */
export async function saveContact(workspaceId: string, current: Contact, next: Contact): Promise<void> {
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
    {
      Put: {
        TableName: tableName(),
        Item: toContactItem(workspaceId, next),
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': current.version },
      },
    },
  ];
  if (normalizeEmail(current.email) !== normalizeEmail(next.email)) {
    items.push(
      { Delete: { TableName: tableName(), Key: contactKeys.emailGuard(workspaceId, current.email) } },
      {
        Put: {
          TableName: tableName(),
          Item: emailGuardItem(workspaceId, next),
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
        },
      },
    );
  }
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const failed = failedConditionIndices(error);
      if (failed.includes(0)) throw new ContactVersionConflictError();
      if (failed.includes(2)) throw new ContactEmailTakenError(next.email);
      if (isTransactionContention(error)) throw new ContactWriteContentionError();
    }
    throw error;
  }
}

export interface ContactListQuery {
  page: number;
  limit: number;
  sort: 'createdAt' | 'email';
  direction: 'asc' | 'desc';
  email?: string;
}

/**
 * One page of the workspace's contacts. `createdAt` follows the contact partition's key order;
 * `email` follows the email-guard partition's key order and then batch-reads that page's contacts.
 * Either way the reads grow with the page depth, never with the number of contacts. The `email`
 * filter is one guard lookup.
 */
export async function listContacts(workspaceId: string, query: ContactListQuery): Promise<{ items: Contact[]; hasMore: boolean }> {
  if (query.email !== undefined) {
    const contact = await findContactByEmail(workspaceId, query.email);
    const items = contact && query.page === 0 ? [contact] : [];
    return { items: items.slice(0, query.limit), hasMore: false };
  }
  const ascending = query.direction === 'asc';
  if (query.sort === 'createdAt') {
    const { items, hasMore } = await queryPage({
      TableName: tableName(),
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
      ExpressionAttributeValues: { ':pk': contactKeys.contactPartition(workspaceId) },
      ScanIndexForward: ascending,
    }, query.page, query.limit);
    return { items: items.map(fromContactItem), hasMore };
  }
  const { items: guards, hasMore } = await queryPage({
    TableName: tableName(),
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
    ExpressionAttributeValues: { ':pk': contactKeys.emailGuardPartition(workspaceId) },
    ScanIndexForward: ascending,
  }, query.page, query.limit);
  const ids = guards.map((guard) => guard.contactId as string);
  const contacts = await getContactsByIds(workspaceId, ids);
  return { items: ids.flatMap((id) => contacts.get(id) ?? []), hasMore };
}
