import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '../db/batch-get.js';
import { failedConditionIndices, isTransactionContention } from '../db/cancellation.js';
import { db, tableName } from '../db/client.js';
import { queryPage, type Page, type PageRequest } from '../db/query.js';
import { TABLE_KEYS } from '../db/table-design.js';
import { ConflictError, ValidationError } from '../errors.js';
import { CONTACT_EMAIL_GUARD_ENTITY, contactKeys, fromContactItem, toContactItem, type Contact } from '../contacts/contact-entity.js';
import { fromResponseItem, responseKeys, toResponseByContactItem, toResponseItem, type FormResponse } from './response-entity.js';

/**
 * The contact write that goes with a response: a new contact (with its email guard), or the next
 * version of an existing one (conditional on the version read).
 */
export type ContactWrite =
  | { readonly kind: 'create'; readonly contact: Contact }
  | { readonly kind: 'update'; readonly current: Contact; readonly next: Contact };

/**
 * The contact write lost a race (another request created the contact of this email, changed the
 * contact, or touched the same items at the same moment). Nothing was written: read again and retry.
 */
export class SubmissionContactRaceError extends ConflictError {
  constructor() {
    super('The contact of this email is being changed by another request at the same moment. Retry the request.');
  }
}

/** DynamoDB refuses items above 400 KB, either before the transaction or as its cancellation reason. */
function tooLarge(error: unknown): boolean {
  if (error instanceof TransactionCanceledException) {
    return (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ValidationError' && /item size/i.test(reason.Message ?? ''));
  }
  return error instanceof Error && error.name === 'ValidationException' && /item size/i.test(error.message);
}

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

const notExists = { ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey } };

function contactItems(workspaceId: string, write: ContactWrite): TransactItems {
  if (write.kind === 'update') {
    return [{
      Put: {
        TableName: tableName(),
        Item: toContactItem(workspaceId, write.next),
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': write.current.version },
      },
    }];
  }
  const guard = { ...contactKeys.emailGuard(workspaceId, write.contact.email), [TABLE_KEYS.entityType]: CONTACT_EMAIL_GUARD_ENTITY, contactId: write.contact.id };
  return [
    { Put: { TableName: tableName(), Item: toContactItem(workspaceId, write.contact), ...notExists } },
    { Put: { TableName: tableName(), Item: guard, ...notExists } },
  ];
}

/**
 * Finds the workspace's contact of an email with strongly consistent reads (guard, then contact), so
 * that a retry after a lost race sees the winner's write.
 */
export async function findContactForSubmission(workspaceId: string, email: string): Promise<Contact | undefined> {
  const { Item: guard } = await db.send(new GetCommand({ TableName: tableName(), Key: contactKeys.emailGuard(workspaceId, email), ConsistentRead: true }));
  if (!guard || typeof guard.contactId !== 'string') return undefined;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: contactKeys.contact(workspaceId, guard.contactId), ConsistentRead: true }));
  return Item ? fromContactItem(Item) : undefined;
}

/**
 * Stores a response, its `contactId` projection and its contact write in ONE transaction: either the
 * response and the contact change both land, or neither does.
 */
export async function saveSubmission(workspaceId: string, response: FormResponse, contact?: ContactWrite): Promise<void> {
  const contactId = response.contactId;
  const items: TransactItems = [
    { Put: { TableName: tableName(), Item: toResponseItem(workspaceId, response), ...notExists } },
    ...(contact ? contactItems(workspaceId, contact) : []),
    ...(contactId === undefined ? [] : [{ Put: { TableName: tableName(), Item: toResponseByContactItem(workspaceId, { ...response, contactId }), ...notExists } }]),
  ];
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (tooLarge(error)) throw new ValidationError({ path: 'answers', message: 'The response is too large to store (about 400 KB). Send shorter answers.' });
    // The response id is fresh, so a failed condition is always on the contact or its guard.
    if (error instanceof TransactionCanceledException && (isTransactionContention(error) || failedConditionIndices(error).length > 0)) {
      throw new SubmissionContactRaceError();
    }
    throw error;
  }
}

export interface ResponseListFilter {
  direction: 'asc' | 'desc';
  contactId?: string | undefined;
}

/**
 * One page of a form's responses in submission order (ids are time-ordered). Unfiltered: a Query on
 * the form's response partition. With `contactId`: a Query on that contact's projection partition,
 * then one BatchGet of the page. One Query per cursor page, never the form's other responses.
 */
export async function listResponses(workspaceId: string, formId: string, filter: ResponseListFilter, request: PageRequest): Promise<Page<FormResponse>> {
  const partition = filter.contactId === undefined
    ? responseKeys.partition(workspaceId, formId)
    : responseKeys.byContactPartition(workspaceId, formId, filter.contactId);
  const scope = { owner: workspaceId, list: `responses:${formId}`, shape: { ...filter } };
  const page = await queryPage({ partition, ascending: filter.direction === 'asc' }, request, scope);
  if (filter.contactId === undefined) return { ...page, items: page.items.map(fromResponseItem) };
  const ids = page.items.map((item) => item.responseId as string);
  const byId = new Map((await batchGetItems(ids.map((id) => responseKeys.response(workspaceId, formId, id)))).map((item) => [item.id as string, fromResponseItem(item)]));
  return { ...page, items: ids.flatMap((id) => byId.get(id) ?? []) };
}

/** One response of one of the workspace's forms; another workspace's (or form's) is simply absent. */
export async function getResponse(workspaceId: string, formId: string, id: string): Promise<FormResponse | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: responseKeys.response(workspaceId, formId, id) }));
  return Item ? fromResponseItem(Item) : undefined;
}
