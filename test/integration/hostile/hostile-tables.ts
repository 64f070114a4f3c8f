/**
 * The hostile-input suite runs on tables of its own (created by the suite) so that a Scan shows exactly
 * what its requests wrote, whatever the other integration files do at the same time. Imported first by
 * the suite: the shared DynamoDB client and config read these variables when they load.
 */
export const HOSTILE_TABLE = 'boxoffice-hostile';
export const HOSTILE_IDEMPOTENCY_TABLE = 'boxoffice-hostile-idempotency';
process.env.TABLE_NAME = HOSTILE_TABLE;
process.env.IDEMPOTENCY_TABLE_NAME = HOSTILE_IDEMPOTENCY_TABLE;
