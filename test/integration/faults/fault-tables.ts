/**
 * The fault suite runs on tables of its own (created by the suite) so that a Scan shows exactly what
 * its requests wrote, whatever the other integration files do at the same time. Imported first by the
 * suite: the shared DynamoDB client and config read these variables when they load.
 */
export const FAULT_TABLE = 'boxoffice-faults';
export const FAULT_IDEMPOTENCY_TABLE = 'boxoffice-faults-idempotency';
process.env.TABLE_NAME = FAULT_TABLE;
process.env.IDEMPOTENCY_TABLE_NAME = FAULT_IDEMPOTENCY_TABLE;
