import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { withoutKeys } from '../db/query.js';
import { legacyQueryAll as queryAll } from '../db/legacy-query.js';
import { TABLE_KEYS } from '../db/table-design.js';
import { ConflictError, ValidationError } from '../errors.js';
import { checkoutKeys, toCheckoutItem, toDeletedCheckoutItem, type CheckoutRecord } from './checkout-entity.js';

/** The stored version moved on since it was read: the caller retries or answers 409. */
export class CheckoutVersionConflictError extends ConflictError {
  constructor() {
    super('The checkout was modified since you read it. Read it again and retry.');
  }
}

/** DynamoDB refuses items above 400 KB; the request limits allow bodies that reach it (many dependents and fees). */
function isItemTooLarge(error: unknown): boolean {
  return error instanceof Error && error.name === 'ValidationException' && /item size/i.test(error.message);
}

const tooLarge = () => new ValidationError({ path: 'products', message: 'The checkout is too large to store: use fewer products, dependents or custom fees.' });

function toRecord(item: Record<string, unknown>): CheckoutRecord {
  return withoutKeys(item) as CheckoutRecord;
}

export async function insertCheckout(workspaceId: string, record: CheckoutRecord): Promise<void> {
  try {
    await db.send(new PutCommand({
      TableName: tableName(),
      Item: toCheckoutItem(workspaceId, record),
      ConditionExpression: 'attribute_not_exists(#pk)',
      ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
    }));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new ConflictError('A checkout with this id already exists.');
    if (isItemTooLarge(error)) throw tooLarge();
    throw error;
  }
}

/** A live checkout of the workspace (consistent read: updates build on it), or undefined. */
export async function findCheckout(workspaceId: string, checkoutId: string): Promise<CheckoutRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: checkoutKeys.checkout(workspaceId, checkoutId), ConsistentRead: true }));
  return Item ? toRecord(Item) : undefined;
}

/** Replaces a checkout only if it still has the version that was read. */
export async function replaceCheckout(workspaceId: string, next: CheckoutRecord, readVersion: number): Promise<void> {
  try {
    await db.send(new PutCommand({
      TableName: tableName(),
      Item: toCheckoutItem(workspaceId, next),
      ConditionExpression: '#version = :read',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':read': readVersion },
    }));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new CheckoutVersionConflictError();
    if (isItemTooLarge(error)) throw tooLarge();
    throw error;
  }
}

/**
 * Soft delete in ONE transaction: the live item goes (only at the version read) and the record is
 * kept under the deleted prefix with `deletedAt`.
 */
export async function softDeleteCheckout(workspaceId: string, record: CheckoutRecord, deletedAt: string): Promise<void> {
  try {
    await db.send(new TransactWriteCommand({
      TransactItems: [
        {
          Delete: {
            TableName: tableName(),
            Key: checkoutKeys.checkout(workspaceId, record.id),
            ConditionExpression: '#version = :read',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':read': record.version },
          },
        },
        { Put: { TableName: tableName(), Item: toDeletedCheckoutItem(workspaceId, record, deletedAt) } },
      ],
    }));
  } catch (error) {
    if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') {
      throw new CheckoutVersionConflictError();
    }
    throw error;
  }
}

/**
 * Every live checkout of the workspace: one Query on its collection (paged by DynamoDB per 1 MB).
 * The list endpoint filters, searches and sorts in memory, so its cost grows with the number of
 * live checkouts of the workspace, not with the page asked for (README "Checkouts").
 */
export async function listLiveCheckouts(workspaceId: string): Promise<CheckoutRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
    ExpressionAttributeValues: { ':pk': checkoutKeys.collection(workspaceId) },
  });
  return items.map(toRecord);
}
