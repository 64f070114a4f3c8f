import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The physical design of the single table, named once. The CDK data stack, the local bootstrap and
 * every repository import these names; nobody spells `PK` or `GSI1` anywhere else.
 *
 * Indexes are generic physically (`GSI1PK`/`GSI1SK`) and named in code by the access pattern they
 * serve, so one physical index can serve several entity types (index overloading).
 */
export const TABLE_KEYS = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Entity-type attribute written on every item (`Workspace`, `ApiKey`, `Form`, ...). */
  entityType: 'entity',
  /** Epoch-seconds TTL attribute; DynamoDB deletes expired items (e.g. expired guards). */
  ttl: 'expiresAt',
} as const;

export interface IndexDesign {
  readonly indexName: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  /** Why the index exists: shown in the README data model. */
  readonly purpose: string;
}

export const INDEXES = {
  /** Partner referral codes: partner lookup by code and the partner's public event listing. */
  byReferralCode: {
    indexName: 'GSI1',
    partitionKey: 'GSI1PK',
    sortKey: 'GSI1SK',
    purpose: 'partner by referral code; public events of a partner',
  },
  /** Event-scoped balances: ledger entries and balance aggregates of one event. */
  byEventBalance: {
    indexName: 'GSI2',
    partitionKey: 'GSI2PK',
    sortKey: 'GSI2SK',
    purpose: 'ledger entries and balance aggregates scoped to one event',
  },
  /**
   * Creation order of a table partition: an item listed by creation time repeats its partition key in
   * GSI3PK and sorts on `<createdAt, ms>#<id>` (`creationOrderKey`). Ids carry random tails, so the
   * table's own sort key (the id) orders by creation second only.
   */
  byCreatedAt: {
    indexName: 'GSI3',
    partitionKey: 'GSI3PK',
    sortKey: 'GSI3SK',
    purpose: 'workspace lists in creation order (createdAt to the millisecond, then id)',
  },
} as const satisfies Record<string, IndexDesign>;

export type IndexName = keyof typeof INDEXES;

/**
 * The generic indexes are overloaded: besides the pattern each was made for, they order workspace
 * lists by name (GSI1) and by last update (GSI2). Every use writes partition values with a prefix no
 * other use writes (`WS#<ws>#FORMS_BY_NAME`, `WS#<ws>#PROPERTIES_BY_UPDATED#...`), so uses never mix.
 * Named here by the order they give, so that model modules say what they place an item in.
 */
export const LIST_ORDER_INDEXES = {
  byName: 'byReferralCode',
  byUpdatedAt: 'byEventBalance',
  /**
   * The operators' directory (admin CLI lists): workspaces and partners of the platform
   * (`DIRECTORY#WORKSPACES`, `DIRECTORY#PARTNERS`) and a workspace's API keys
   * (`WS#<ws>#DIRECTORY#APIKEYS`), each sorted by `<createdAt>#<id>`.
   */
  directory: 'byEventBalance',
} as const satisfies Record<string, IndexName>;

/** A primary key of the main table, as the DocumentClient takes it. */
export type ItemKey = Record<string, string>;

/**
 * Key builders: model modules describe keys as values (`itemKey('WS#..#INVOICE', id)`) and never
 * spell the attribute names, so the physical design can change here alone.
 */
export function itemKey(partition: string, sort: string): ItemKey {
  return { [TABLE_KEYS.partitionKey]: partition, [TABLE_KEYS.sortKey]: sort };
}

/** The key the health check reads: never written, so the cheapest read that proves the table answers. */
export const HEALTH_PROBE_KEY: ItemKey = itemKey('HEALTH', 'HEALTH');

/** The attributes that place an item in an index (merged into the item that the index should list). */
export function indexKey(index: IndexName, partition: string, sort: string): Record<string, string> {
  const design = INDEXES[index];
  return { [design.partitionKey]: partition, [design.sortKey]: sort };
}

/**
 * The attributes that place a stored item in the creation order of its own table partition (the
 * `byCreatedAt` index): `key` is the item's table key, `createdAt` the creation time of the object it
 * lists (a projection passes its main object's). Normalised to the millisecond ISO form, so every
 * value sorts as time.
 */
export function creationOrderKey(key: ItemKey, createdAt: string, id: string): Record<string, string> {
  return indexKey('byCreatedAt', key[TABLE_KEYS.partitionKey] as string, `${new Date(createdAt).toISOString()}#${id}`);
}

/** The entity-type attribute of an item. */
export function entityAttribute(entity: string): Record<string, string> {
  return { [TABLE_KEYS.entityType]: entity };
}

/** The entity type of a stored item. */
export function entityOf(item: Record<string, unknown>): unknown {
  return item[TABLE_KEYS.entityType];
}

/** Expression attribute names for `#entity`, for update expressions that set the entity type. */
export function entityNames(): Record<string, string> {
  return { '#entity': TABLE_KEYS.entityType };
}

/** The TTL attribute (epoch seconds): DynamoDB deletes the item some time after this moment. */
export function ttlAttribute(epochSeconds: number): Record<string, number> {
  return { [TABLE_KEYS.ttl]: epochSeconds };
}

/** Every attribute the physical design adds to an item; stripped before an item leaves a repository. */
export const DESIGN_ATTRIBUTES: readonly string[] = [
  TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, TABLE_KEYS.entityType, TABLE_KEYS.ttl,
  ...Object.values(INDEXES).flatMap((index) => [index.partitionKey, index.sortKey]),
];

/**
 * Strips the physical design's attributes (keys, entity type, TTL) and `extra` from a stored item.
 * Here rather than in query.ts: model modules map items, and the CDK app loads them through the route
 * table, so they must not load the database client (which needs TABLE_NAME at load).
 */
export function withoutKeys(item: Record<string, unknown>, extra: readonly string[] = []): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...item };
  for (const attribute of DESIGN_ATTRIBUTES) delete rest[attribute];
  for (const attribute of extra) delete rest[attribute];
  return rest;
}

/** The attributes of the key an item has in the table (no index) or in `index` (index keys + table keys). */
export function keyAttributesOf(index?: IndexName): readonly string[] {
  const table = [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey];
  return index ? [INDEXES[index].partitionKey, INDEXES[index].sortKey, ...table] : table;
}

/** The partition and sort values of a stored item (for cursors and for rebuilding its key). */
export function sortValueOf(item: Record<string, unknown>, index?: IndexName): unknown {
  return item[index ? INDEXES[index].sortKey : TABLE_KEYS.sortKey];
}

/** The partition-key value of a stored item (e.g. to find the workspace a main item belongs to). */
export function partitionOf(item: Record<string, unknown>): string {
  return String(item[TABLE_KEYS.partitionKey]);
}

/** The main-table key of a stored item. */
export function keyOfItem(item: Record<string, unknown>): ItemKey {
  return itemKey(String(item[TABLE_KEYS.partitionKey]), String(item[TABLE_KEYS.sortKey]));
}

/** A key as one string (attribute order aside), to match the items a BatchGet returns to the keys asked for. */
export function keyIdentity(key: ItemKey): string {
  return JSON.stringify(Object.entries(key).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The condition "no item with this key exists yet" (create-only puts and guard items). */
export function notExists(): { expression: string; names: Record<string, string> } {
  return { expression: 'attribute_not_exists(#pk)', names: { '#pk': TABLE_KEYS.partitionKey } };
}

/** The condition "the item exists" (updates that must never create). */
export function exists(): { expression: string; names: Record<string, string> } {
  return { expression: 'attribute_exists(#pk)', names: { '#pk': TABLE_KEYS.partitionKey } };
}

/** Idempotency records live in their own table: see README "Idempotency" for why. */
export const IDEMPOTENCY_TABLE_KEYS = {
  partitionKey: 'id',
  ttl: 'expiration',
} as const;

/**
 * The table's stream: new images of every write, read by the webhook dispatcher (Lambda event-source
 * mapping deployed, the local server's reader locally). Outbox events and deliveries need only their
 * new image.
 */
export const TABLE_STREAM_VIEW = 'NEW_IMAGE' as const;

/** CreateTable input for the single table: used by the local bootstrap and mirrored by the CDK stack. */
export function mainTableDefinition(tableName: string): CreateTableCommandInput {
  const indexes = Object.values(INDEXES) as IndexDesign[];
  const attributeNames = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
  for (const index of indexes) {
    attributeNames.add(index.partitionKey);
    attributeNames.add(index.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributeNames].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: indexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_STREAM_VIEW },
  };
}

export function idempotencyTableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: IDEMPOTENCY_TABLE_KEYS.partitionKey, AttributeType: 'S' }],
    KeySchema: [{ AttributeName: IDEMPOTENCY_TABLE_KEYS.partitionKey, KeyType: 'HASH' }],
  };
}
