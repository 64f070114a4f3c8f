/**
 * The reconciler reads the platform-wide "refunds due" partition: its tests run on tables of their own
 * so that they never finish (or wait for) the refunds of other test files running at the same time.
 * Imported first: the shared DynamoDB client and config read these variables when they load.
 */
export const RECONCILER_TABLE = 'boxoffice-reconciler';
export const RECONCILER_IDEMPOTENCY_TABLE = 'boxoffice-reconciler-idempotency';
process.env.TABLE_NAME = RECONCILER_TABLE;
process.env.IDEMPOTENCY_TABLE_NAME = RECONCILER_IDEMPOTENCY_TABLE;
