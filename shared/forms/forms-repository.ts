import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { batchGetItems } from '../db/batch-get.js';
import { GetCommand, PutCommand, TransactWriteCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { legacyQueryPage as queryPage } from '../db/legacy-query.js';
import { TABLE_KEYS } from '../db/table-design.js';
import { ConflictError, ValidationError } from '../errors.js';
import { FORM_LIST_INDEXES, formKeys, fromFormItem, toFormItem, toFormPointerItem } from './form-entity.js';
import type { Form, FormStatus } from './form-schemas.js';

/** The form changed since it was read: the service re-reads (no If-Match) or answers 409 (If-Match). */
export class FormVersionConflictError extends ConflictError {
  constructor() {
    super('The form was modified by another request. Re-read it and retry with the current version.');
  }
}

/** A form is one item, so its size is bounded by DynamoDB's item limit (400 KB): a 422, not a 500. */
function tooLarge(error: unknown): boolean {
  if (error instanceof TransactionCanceledException) {
    return (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ValidationError' && /item size/i.test(reason.Message ?? ''));
  }
  return error instanceof Error && error.name === 'ValidationException' && /item size/i.test(error.message);
}

const tooLargeError = () => new ValidationError({ path: 'elements', message: 'The form is too large to store (about 400 KB with all its elements). Split it into smaller forms.' });

/**
 * Creates a form and its public pointer in one transaction (nothing half-written); the id is fresh,
 * so the conditions only guard against a (theoretical) id clash.
 */
export async function createForm(workspaceId: string, form: Form): Promise<void> {
  const notExists = { ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey } };
  try {
    await db.send(new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: toFormItem(workspaceId, form), ...notExists } },
        { Put: { TableName: tableName(), Item: toFormPointerItem(workspaceId, form.id), ...notExists } },
      ],
    }));
  } catch (error) {
    if (tooLarge(error)) throw tooLargeError();
    throw error;
  }
}

/** The workspace owning a form, from its pointer; `undefined` for an unknown form id. */
export async function getFormWorkspaceId(formId: string): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: formKeys.pointer(formId) }));
  return typeof Item?.workspaceId === 'string' ? Item.workspaceId : undefined;
}

/** Reads one form of the workspace; another workspace's form is simply absent. */
export async function getForm(workspaceId: string, id: string, options: { consistent?: boolean } = {}): Promise<Form | undefined> {
  const { Item } = await db.send(new GetCommand({
    TableName: tableName(),
    Key: formKeys.form(workspaceId, id),
    ConsistentRead: options.consistent ?? false,
  }));
  return Item ? fromFormItem(Item) : undefined;
}

/**
 * Replaces the form if, and only if, it still has the version that was read: the whole form with its
 * elements is one item, so this one conditional put is what keeps concurrent edits from being lost.
 */
export async function saveForm(workspaceId: string, next: Form, readVersion: number): Promise<void> {
  try {
    await db.send(new PutCommand({
      TableName: tableName(),
      Item: toFormItem(workspaceId, next),
      ConditionExpression: '#version = :read',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':read': readVersion },
    }));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new FormVersionConflictError();
    if (tooLarge(error)) throw tooLargeError();
    throw error;
  }
}

export interface FormListQuery {
  page: number;
  limit: number;
  sort: 'name' | 'createdAt' | 'updatedAt';
  direction: 'asc' | 'desc';
  status?: FormStatus | undefined;
}

/**
 * One page of the workspace's forms. Each sort order reads a key order made for it (the main
 * partition for `createdAt`, GSI1 for `name`, GSI2 for `updatedAt`), so a page costs reads
 * proportional to its depth; `status` is a filter on that Query.
 */
export async function listForms(workspaceId: string, query: FormListQuery): Promise<{ items: Form[]; hasMore: boolean }> {
  const byIndex = query.sort === 'name' ? FORM_LIST_INDEXES.byName : query.sort === 'updatedAt' ? FORM_LIST_INDEXES.byUpdatedAt : undefined;
  const partitionKey = byIndex?.partitionKey ?? TABLE_KEYS.partitionKey;
  const partitionValue = query.sort === 'name'
    ? formKeys.byNamePartition(workspaceId)
    : query.sort === 'updatedAt' ? formKeys.byUpdatedPartition(workspaceId) : formKeys.partition(workspaceId);
  const input: QueryCommandInput = {
    TableName: tableName(),
    ...(byIndex ? { IndexName: byIndex.indexName } : {}),
    KeyConditionExpression: '#pk = :pk',
    ScanIndexForward: query.direction === 'asc',
    ExpressionAttributeNames: { '#pk': partitionKey, ...(query.status ? { '#status': 'status' } : {}) },
    ExpressionAttributeValues: { ':pk': partitionValue, ...(query.status ? { ':status': query.status } : {}) },
    ...(query.status ? { FilterExpression: '#status = :status' } : {}),
  };
  const { items, hasMore } = await queryPage(input, query.page, query.limit);
  return { items: items.map(fromFormItem), hasMore };
}

/** What other resources show of a form they reference. */
export interface FormSummary {
  name: string;
  type: Form['type'];
}

/**
 * Name and type of many forms at once (e.g. a checkout's `orderFormId`): one BatchGetItem per 100
 * distinct ids, projecting only what is shown. Absent ids (or another workspace's) are missing.
 */
export async function getFormSummaries(workspaceId: string, ids: readonly string[]): Promise<Map<string, FormSummary>> {
  const keys = [...new Set(ids)].map((id) => formKeys.form(workspaceId, id));
  const items = await batchGetItems(keys, { attributes: ['id', 'name', 'type'] });
  return new Map(items.map((item) => [item.id as string, { name: item.name as string, type: item.type as Form['type'] }]));
}

/** Display names of many forms at once (`formName` on checkouts). */
export async function getFormNames(workspaceId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const summaries = await getFormSummaries(workspaceId, ids);
  return new Map([...summaries].map(([id, summary]) => [id, summary.name]));
}
