import { ensureLocalAwsEnv } from './dynamodb-local.js';

export const DEFAULT_TABLE_NAME = 'boxoffice-local';
export const DEFAULT_DYNAMODB_PORT = 8000;

export interface LocalEnvironment {
  tableName: string;
  idempotencyTableName: string;
  /** Undefined means "the real AWS endpoint" (admin CLI with `--aws`). */
  endpoint: string | undefined;
}

/**
 * The defaults shared by `npm start`, `npm run admin` and the tests: TABLE_NAME (boxoffice-local),
 * DYNAMODB_ENDPOINT, else DynamoDB Local on 127.0.0.1:$DYNAMODB_PORT (8000). Writes them into
 * process.env, where the shared runtime config reads them.
 */
/**
 * Outside Lambda the Tracer is off (shared/observability/tracing.ts), yet the X-Ray SDK it loads starts in
 * automatic mode: an async hook on every promise of the process (~6% of the integration tests' time).
 * Manual mode skips that hook; read when the SDK loads, so before any runtime module does.
 */
export const LOCAL_XRAY_MANUAL_MODE = 'true';

export function applyLocalEnvironment(options: { endpoint?: string | null; useAws?: boolean } = {}): LocalEnvironment {
  const tableName = process.env.TABLE_NAME || DEFAULT_TABLE_NAME;
  const idempotencyTableName = process.env.IDEMPOTENCY_TABLE_NAME || `${tableName}-idempotency`;
  process.env.TABLE_NAME = tableName;
  process.env.IDEMPOTENCY_TABLE_NAME = idempotencyTableName;
  process.env.POWERTOOLS_SERVICE_NAME ??= 'boxoffice-local';
  // Set by Lambda in every on-demand environment; Powertools logs cold starts only when it is there
  // (read when the logger is created, so before any runtime module loads). See cold-start.ts.
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE ??= 'on-demand';
  process.env.AWS_XRAY_MANUAL_MODE ??= LOCAL_XRAY_MANUAL_MODE;
  if (options.useAws) {
    delete process.env.DYNAMODB_ENDPOINT;
    return { tableName, idempotencyTableName, endpoint: undefined };
  }
  // Locally, webhook endpoints may also be http://127.0.0.1 and http://localhost (API.md "Webhooks").
  process.env.WEBHOOK_URL_POLICY ??= 'local';
  const port = Number(process.env.DYNAMODB_PORT || DEFAULT_DYNAMODB_PORT);
  const endpoint = options.endpoint || process.env.DYNAMODB_ENDPOINT || `http://127.0.0.1:${port}`;
  process.env.DYNAMODB_ENDPOINT = endpoint;
  ensureLocalAwsEnv();
  return { tableName, idempotencyTableName, endpoint };
}
