import type { AttributeValue, DynamoDBClient, TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { currentDbStats } from '../../shared/db/instrumentation.js';

/**
 * DynamoDB Local reports 2 capacity units for any `TransactWriteItems`, whatever its number of items
 * (1, 3 and 10 puts all report 2), where DynamoDB charges 2 WCU per started KB of each item. The
 * local server corrects the request's `X-Db-Stats` (and so P3/P6 of `npm run bench`) with what
 * DynamoDB would charge: a put by its item's size, an update, delete or condition check 2 WCU (the
 * stored item's size is not in the request: a lower bound for items above 1 KB). Local only: deployed,
 * DynamoDB reports the real figure, and this code is not in any function bundle.
 */

const KB = 1024;

/** DynamoDB's item size rules for one attribute value (names count where they appear). */
export function attributeValueSize(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, number) => sum + numberSize(number), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, bytes) => sum + bytes.byteLength, 0);
  if (value.L !== undefined) return 3 + value.L.reduce((sum, element) => sum + 1 + attributeValueSize(element), 0);
  if (value.M !== undefined) return 3 + itemSize(value.M) + Object.keys(value.M).length;
  return 0;
}

/** About one byte per two significant digits, plus one. */
function numberSize(number: string): number {
  const digits = number.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

/** Bytes of an item: each attribute's name and value. */
export function itemSize(item: Record<string, AttributeValue>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + attributeValueSize(value), 0);
}

/** What DynamoDB charges for one transactional write item. */
export function transactWriteUnits(entry: TransactWriteItem): number {
  const size = entry.Put ? itemSize(entry.Put.Item ?? {}) : 0;
  return 2 * Math.max(1, Math.ceil(size / KB));
}

interface ReportedCapacity {
  CapacityUnits?: number;
  WriteCapacityUnits?: number;
}

/** Adds to the request's statistics what DynamoDB Local leaves out of each TransactWriteItems. */
export function countTransactWriteCapacity(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const stats = currentDbStats();
      if (stats && context.commandName === 'TransactWriteItemsCommand') {
        const items = (args.input as { TransactItems?: TransactWriteItem[] }).TransactItems ?? [];
        const consumed = (result.output as { ConsumedCapacity?: ReportedCapacity[] }).ConsumedCapacity ?? [];
        const reported = consumed.reduce((sum, entry) => sum + (entry.WriteCapacityUnits ?? entry.CapacityUnits ?? 0), 0);
        const charged = items.reduce((sum, entry) => sum + transactWriteUnits(entry), 0);
        stats.writeUnits += Math.max(0, charged - reported);
      }
      return result;
    },
    // After the document client's marshalling: the input holds AttributeValues.
    { step: 'serialize', name: 'boxofficeLocalTransactCapacity', override: true },
  );
}
