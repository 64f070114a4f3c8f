import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Context } from 'aws-lambda';
import {
  IdempotencyAlreadyInProgressError, IdempotencyConfig, IdempotencyPersistenceLayerError, IdempotencyValidationError, makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { config } from '../config.js';
import { idempotencyPersistence } from '../db/idempotency-persistence.js';
import { IDEMPOTENCY_TABLE_KEYS } from '../db/table-design.js';
import { withWriteFence, type WriteFence } from '../db/write-fence.js';
import { InProgressConflictError, IdempotencyKeyReusedError, ServiceUnavailableError, ValidationError } from '../errors.js';
import { logger } from '../logger.js';

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
  persistence ??= idempotencyPersistence(config().idempotencyTableName);
  return persistence;
}

export interface IdempotentRequest {
  /** `Idempotency-Key` header value. */
  key: string;
  /** Workspace id, or `public` for unauthenticated routes. */
  scope: string;
  operation: string;
  /** Everything that makes the request what it is, its operation included: a different fingerprint is `idempotency_key_reused`. */
  fingerprint: string;
  /** The response holds a secret: store it sealed (see `seal`), never in clear. */
  sealResponse?: boolean;
}

const SEALED_PREFIX = 'sealed:v1:';

/** The prefix of every idempotency record id (Powertools' `keyPrefix`), whichever function writes it. */
const RECORD_PREFIX = 'boxoffice';

/**
 * The key that seals a stored response: derived (HKDF-SHA256) from the Idempotency-Key the client
 * sends again to replay it, bound to its scope and operation. The server keeps neither the key nor
 * the Idempotency-Key (Powertools stores a hash of the record id), so a stored response holding a
 * secret is ciphertext at rest, as strong as the client's Idempotency-Key (a random UUID is 122 bits).
 */
function sealingKey(request: IdempotentRequest): Buffer {
  return Buffer.from(hkdfSync('sha256', request.key, `${request.scope}#${request.operation}`, 'boxoffice idempotent response', 32));
}

/** The response with its body encrypted (AES-256-GCM), as stored for replays. */
function seal(response: StoredResponse, request: IdempotentRequest): StoredResponse {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(request), iv);
  const ciphertext = Buffer.concat([cipher.update(response.body, 'utf8'), cipher.final()]);
  return { ...response, body: SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64') };
}

/** The stored response as it was answered: `seal` undone with the key the replaying request derives. */
function unseal(response: StoredResponse, request: IdempotentRequest): StoredResponse {
  if (!response.body.startsWith(SEALED_PREFIX)) return response;
  const sealed = Buffer.from(response.body.slice(SEALED_PREFIX.length), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(request), sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return { ...response, body: Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8') };
}

/**
 * Powertools' errors as domain errors, here rather than in the error mapping: this module (and with it
 * Powertools Idempotency and jmespath) is bundled only into the groups with keyed POST routes, while
 * the error mapping is in every function.
 */
function toIdempotencyDomainError(error: unknown): unknown {
  if (error instanceof IdempotencyValidationError) return new IdempotencyKeyReusedError();
  if (error instanceof IdempotencyAlreadyInProgressError) return new InProgressConflictError();
  if (error instanceof IdempotencyPersistenceLayerError) return Object.assign(new ServiceUnavailableError(), { cause: error });
  return error;
}

/** The "applied" marker of a request (write-fence.ts), in the idempotency table next to the records. */
function writeFenceOf(recordId: string): WriteFence {
  const id = `applied#${createHash('sha256').update(recordId).digest('hex')}`;
  return {
    tableName: config().idempotencyTableName,
    keyAttribute: IDEMPOTENCY_TABLE_KEYS.partitionKey,
    expiryAttribute: IDEMPOTENCY_TABLE_KEYS.ttl,
    // Lives as long as the record: after 24 hours the key may be used for a new request.
    item: { [IDEMPOTENCY_TABLE_KEYS.partitionKey]: id, [IDEMPOTENCY_TABLE_KEYS.ttl]: Math.floor(Date.now() / 1000) + IDEMPOTENCY_TTL_SECONDS },
    committed: false,
  };
}

/**
 * Runs `work` at most once per (scope, key) within 24 hours, via Powertools Idempotency.
 * A repeat with the same fingerprint replays the stored response (marked `Idempotent-Replayed: true`);
 * a different fingerprint throws IdempotencyKeyReusedError; a repeat while the first is running throws
 * a ConflictError; a failing idempotency table is a ServiceUnavailableError. A thrown error deletes the
 * record, so failures are not stored.
 *
 * Never twice, even when the record is lost: the work's first write commits an "applied" marker with
 * it (write-fence.ts), so a run after the record was lost (never completed, lock lapsed) cannot change
 * anything again (RequestAlreadyAppliedError, 409). And a change that committed is answered as such:
 * when its response cannot be saved (after retries), the client still gets it.
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
  // A key belongs to the workspace (API.md), not to one operation: the same key on another operation is
  // another request (its fingerprint names the operation), so 409 idempotency_key_reused.
  const id = `${request.scope}#${request.key}`;
  // The applied marker stays per operation, as before keys were workspace-wide: a request retried across
  // that change finds its marker (never applied twice) although its record moved.
  const fence = writeFenceOf(`${request.scope}#${request.operation}#${request.key}`);
  let completed: StoredResponse | undefined;
  const idempotent = makeIdempotent(
    async (_input: { id: string; fingerprint: string }) => {
      completed = await withWriteFence(fence, work);
      return request.sealResponse ? seal(completed, request) : completed;
    },
    // One record namespace for every function: Powertools prefixes record ids with the function's name by
    // default, which would scope keys to an endpoint group instead of the workspace.
    { persistenceStore: persistenceStore(), config: idempotencyConfig, keyPrefix: RECORD_PREFIX },
  );
  try {
    const response = (await idempotent({ id, fingerprint: request.fingerprint })) as StoredResponse;
    return request.sealResponse ? unseal(response, request) : response;
  } catch (error) {
    // The work ran and its response is known; only saving it failed. A replay finds the record in
    // progress (409) and, once its lock lapses, the marker: never a second change.
    if (completed && error instanceof IdempotencyPersistenceLayerError) {
      logger.error('Idempotency record not completed; answering the committed response', { error: error as Error });
      return completed;
    }
    throw toIdempotencyDomainError(error);
  }
}
