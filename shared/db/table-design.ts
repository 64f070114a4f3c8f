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
} as const satisfies Record<string, IndexDesign>;

export type IndexName = keyof typeof INDEXES;

/** Idempotency records live in their own table: see README "Idempotency" for why. */
export const IDEMPOTENCY_TABLE_KEYS = {
  partitionKey: 'id',
  ttl: 'expiration',
} as const;

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
