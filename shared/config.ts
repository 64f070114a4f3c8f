/**
 * Runtime configuration, read once at cold start. A missing required variable fails the cold start
 * loudly instead of surfacing later as a confusing DynamoDB error.
 */
export interface RuntimeConfig {
  /** The single table holding every entity. */
  readonly tableName: string;
  /** Dedicated table for Powertools idempotency records (see README "Idempotency"). */
  readonly idempotencyTableName: string;
  /** Override for DynamoDB Local; undefined in AWS. */
  readonly dynamoEndpoint: string | undefined;
  /** Interface version reported by /health and /v1 and written into the OpenAPI document. */
  readonly apiVersion: string;
  /**
   * One DynamoDB attempt's timeout: DYNAMODB_REQUEST_TIMEOUT_MS if set; else, against DynamoDB Local
   * (DYNAMODB_ENDPOINT set), LOCAL_DYNAMODB_REQUEST_TIMEOUT_MS; else (AWS) undefined, the deployed 1 s of
   * DYNAMO_LIMITS (shared/db/time-budget.ts).
   */
  readonly dynamoRequestTimeoutMs: number | undefined;
  /** Emit per-request DynamoDB statistics as a response header (local development and tests only). */
  readonly exposeDbStats: boolean;
}

export const API_NAME = 'Boxoffice API';
export const API_VERSION = '1.0.0';

/**
 * DynamoDB Local's attempt timeout: a Java process sharing the machine's cores (a full test run on 2
 * cores) takes seconds for a checkout's 20-item transaction, where DynamoDB takes milliseconds, and a
 * 1 s timeout made such writes 503. Every local use (npm start, admin, each test tier) points
 * DYNAMODB_ENDPOINT at it, so the default follows that variable, not each entry point.
 */
export const LOCAL_DYNAMODB_REQUEST_TIMEOUT_MS = 4_000;

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(`Missing required environment variable ${name}`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const tableName = env.TABLE_NAME;
  if (!tableName) throw new Error('Missing required environment variable TABLE_NAME');
  return {
    tableName,
    idempotencyTableName: env.IDEMPOTENCY_TABLE_NAME || `${tableName}-idempotency`,
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    apiVersion: env.API_VERSION || API_VERSION,
    exposeDbStats: env.EXPOSE_DB_STATS === 'true',
    dynamoRequestTimeoutMs: positiveInteger(env, 'DYNAMODB_REQUEST_TIMEOUT_MS') ?? (env.DYNAMODB_ENDPOINT ? LOCAL_DYNAMODB_REQUEST_TIMEOUT_MS : undefined),
  };
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`Environment variable ${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

let cached: RuntimeConfig | undefined;

/** The process-wide configuration; loaded on first use, which in Lambda is the cold start. */
export function config(): RuntimeConfig {
  cached ??= loadConfig();
  return cached;
}
