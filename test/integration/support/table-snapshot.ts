import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';

type Item = Record<string, unknown>;

/** Every item of a set of tables, by table and key: what the fault suite compares and restores. */
export type Snapshot = Map<string, Map<string, Item>>;

export interface ItemChange {
  table: string;
  key: string;
  kind: 'added' | 'removed' | 'changed';
  /** The entity type (`entity` attribute), or the idempotency record's status. */
  entity: string;
  /** The item as it is now (added, changed) or was (removed). */
  item: Item;
}

/** Stable JSON: object keys sorted, so equal items compare equal whatever the attribute order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value instanceof Set) return canonical([...value].sort());
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical((value as Item)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Scans and rewrites whole tables, outside any request (a test's own client, not the instrumented
 * one): the fault suite owns its tables, so a Scan sees exactly what the requests under test did.
 */
export class TableSnapshots {
  private readonly client: DynamoDBDocumentClient;

  constructor(endpoint: string | undefined, private readonly tables: { name: string; keys: readonly string[] }[]) {
    this.client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }));
  }

  async take(): Promise<Snapshot> {
    const snapshot: Snapshot = new Map();
    for (const table of this.tables) {
      const items = new Map<string, Item>();
      let start: Item | undefined;
      do {
        const page = await this.client.send(new ScanCommand({ TableName: table.name, ExclusiveStartKey: start }));
        for (const item of page.Items ?? []) items.set(canonical(table.keys.map((key) => item[key])), item);
        start = page.LastEvaluatedKey;
      } while (start);
      snapshot.set(table.name, items);
    }
    return snapshot;
  }

  /** What changed from `before` to `after`, item by item. */
  diff(before: Snapshot, after: Snapshot): ItemChange[] {
    const changes: ItemChange[] = [];
    for (const table of this.tables) {
      const old = before.get(table.name) ?? new Map<string, Item>();
      const now = after.get(table.name) ?? new Map<string, Item>();
      const entity = (item: Item) => String(item.entity ?? item.status ?? 'unknown');
      for (const [key, item] of now) {
        const previous = old.get(key);
        if (!previous) changes.push({ table: table.name, key, kind: 'added', entity: entity(item), item });
        else if (canonical(previous) !== canonical(item)) changes.push({ table: table.name, key, kind: 'changed', entity: entity(item), item });
      }
      for (const [key, item] of old) if (!now.has(key)) changes.push({ table: table.name, key, kind: 'removed', entity: entity(item), item });
    }
    return changes;
  }

  /** Puts the tables back as they were in `target`, given their current content `current`. */
  async restore(target: Snapshot, current: Snapshot): Promise<void> {
    for (const table of this.tables) {
      const wanted = target.get(table.name) ?? new Map<string, Item>();
      const present = current.get(table.name) ?? new Map<string, Item>();
      const requests: Record<string, unknown>[] = [];
      for (const [key, item] of present) {
        if (!wanted.has(key)) requests.push({ DeleteRequest: { Key: Object.fromEntries(table.keys.map((name) => [name, item[name]])) } });
      }
      for (const [key, item] of wanted) {
        const now = present.get(key);
        if (!now || canonical(now) !== canonical(item)) requests.push({ PutRequest: { Item: item } });
      }
      for (let start = 0; start < requests.length; start += 25) {
        let pending: Record<string, unknown[]> | undefined = { [table.name]: requests.slice(start, start + 25) };
        while (pending && Object.keys(pending).length > 0) {
          const result = await this.client.send(new BatchWriteCommand({ RequestItems: pending as never }));
          pending = result.UnprocessedItems as Record<string, unknown[]> | undefined;
        }
      }
    }
  }

  close(): void {
    this.client.destroy();
  }
}

const ID = /\b[0-9a-f]{24}\b/g;
const OPAQUE = /^\S{40,}$/;
const EPOCH = /\d{10,}/g;
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;

/**
 * An item with what differs between two runs of the same request left out: generated ids, timestamps,
 * epoch times, versions and opaque generated strings. Two applications of a change that appends (an element, a payment) still
 * differ: the list is longer.
 */
function normalized(value: unknown, key = ''): unknown {
  // Long strings without spaces are generated material (secrets' ciphertext, signatures): opaque.
  if (typeof value === 'string') return OPAQUE.test(value) ? '<opaque>' : value.replace(ID, '<id>').replace(TIMESTAMP, '<time>').replace(EPOCH, '<n>');
  if (typeof value === 'number') return key === 'version' || value > 1_000_000_000 ? '<n>' : value;
  if (Array.isArray(value)) return value.map((entry) => normalized(entry));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, normalized(entry, name)]));
  return value;
}

/**
 * The effect of a request with ids and timestamps left out: the changed items, normalized, in a
 * stable order. Equal effects mean the same change was made the same number of times.
 */
export function effectContent(changes: readonly ItemChange[]): string {
  return changes.map((change) => `${change.kind}:${canonical(normalized(change.item))}`).sort().join('\n');
}

/** The effect of a request as counts per (table, change, entity): ids and timestamps left out. */
export function effectSignature(changes: readonly ItemChange[]): string {
  const counts = new Map<string, number>();
  for (const change of changes) {
    const label = `${change.table}:${change.kind}:${change.entity}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([label, count]) => `${label}x${count}`).join(' ');
}
