import type { Context } from 'aws-lambda';
import {
  IdempotencyAlreadyInProgressError, IdempotencyConfig, IdempotencyPersistenceLayerError, IdempotencyValidationError, makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { dynamoClient } from '../db/client.js';
import { config } from '../config.js';
import { IDEMPOTENCY_TABLE_KEYS } from '../db/table-design.js';
import { ConflictError, IdempotencyKeyReusedError, ServiceUnavailableError, ValidationError } from '../errors.js';

/** How long a key replays its first response (API.md: 24 hours). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
const MAX_KEY_LENGTH = 255;

/** The response shape stored and replayed. */
export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
}

let persistence: DynamoDBPersistenceLayer | undefined;

function persistenceStore(): DynamoDBPersistenceLayer {
  persistence ??= new DynamoDBPersistenceLayer({
    tableName: config().idempotencyTableName,
    keyAttr: IDEMPOTENCY_TABLE_KEYS.partitionKey,
    expiryAttr: IDEMPOTENCY_TABLE_KEYS.ttl,
    awsSdkV3Client: dynamoClient,
  });
  return persistence;
}

export interface IdempotentRequest {
  /** `Idempotency-Key` header value. */
  key: string;
  /** Workspace id, or `public` for unauthenticated routes. */
  scope: string;
  operation: string;
  /** Everything that makes the request what it is: a different fingerprint is `idempotency_key_reused`. */
  fingerprint: string;
}

/**
 * Powertools' errors as domain errors, here rather than in the error mapping: this module (and with it
 * Powertools Idempotency and jmespath) is bundled only into the groups with keyed POST routes, while
 * the error mapping is in every function.
 */
function toIdempotencyDomainError(error: unknown): unknown {
  if (error instanceof IdempotencyValidationError) return new IdempotencyKeyReusedError();
  if (error instanceof IdempotencyAlreadyInProgressError) {
    return new ConflictError('A request with this Idempotency-Key is still in progress. Retry shortly.');
  }
  if (error instanceof IdempotencyPersistenceLayerError) return Object.assign(new ServiceUnavailableError(), { cause: error });
  return error;
}

/**
 * Runs `work` at most once per (scope, operation, key) within 24 hours, via Powertools Idempotency.
 * A repeat with the same fingerprint replays the stored response (marked `Idempotent-Replayed: true`);
 * a different fingerprint throws IdempotencyKeyReusedError; a repeat while the first is running throws
 * a ConflictError; a failing idempotency table is a ServiceUnavailableError. A thrown error deletes the
 * record, so failures are not stored.
 */
export async function runIdempotent(
  request: IdempotentRequest,
  context: Context,
  work: () => Promise<StoredResponse>,
): Promise<StoredResponse> {
  if (request.key.length === 0 || request.key.length > MAX_KEY_LENGTH) {
    throw new ValidationError({ path: 'Idempotency-Key', message: `must be 1..${MAX_KEY_LENGTH} characters` });
  }
  const idempotencyConfig = new IdempotencyConfig({
    eventKeyJmesPath: 'id',
    payloadValidationJmesPath: 'fingerprint',
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    responseHook: (response) => {
      const stored = response as unknown as StoredResponse;
      return { ...stored, headers: { ...stored.headers, 'Idempotent-Replayed': 'true' } };
    },
  });
  idempotencyConfig.registerLambdaContext(context);
  const idempotent = makeIdempotent(
    async (_input: { id: string; fingerprint: string }) => work(),
    { persistenceStore: persistenceStore(), config: idempotencyConfig },
  );
  try {
    return (await idempotent({ id: `${request.scope}#${request.operation}#${request.key}`, fingerprint: request.fingerprint })) as StoredResponse;
  } catch (error) {
    throw toIdempotencyDomainError(error);
  }
}
