import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient, DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { TimeBudgetExhaustedError } from '../errors.js';

/**
 * One time budget for every invocation, from one set of numbers: the Lambda timeouts the CDK stack
 * deploys, the DynamoDB client's timeouts and attempts, and the per-request deadline derived from the
 * function's remaining time. Running out is a 503 with `Retry-After` (TimeBudgetExhaustedError),
 * never a function timeout: no DynamoDB attempt, and no pause between attempts, starts unless it can
 * end before the deadline.
 */

/** Lambda timeouts (CDK) of the functions. API Gateway itself gives up at 29 s. */
export const FUNCTION_TIMEOUT_MS = {
  api: 10_000,
  authorizer: 5_000,
  reconciler: 60_000,
  /** Fans a stream batch (up to 100 records) out to deliveries and the queue. */
  webhookDispatcher: 60_000,
  /** Up to 10 deliveries at once, each a 10 s POST at most plus a few table calls. */
  webhookSender: 30_000,
  /** The partner listing's event end sweeper (scheduled every minute). */
  sweeper: 60_000,
  /** Counts a stream batch (up to 500 records) in memory and writes a few log lines: no I/O to wait on. */
  businessMetrics: 30_000,
} as const;

/** The shared DynamoDB client's limits (shared/db/client.ts). */
export const DYNAMO_LIMITS = {
  /** TCP/TLS connection set-up. */
  connectionTimeoutMs: 200,
  /** One attempt, connection included (`throwOnRequestTimeout`: a real error, not a warning). */
  requestTimeoutMs: 1_000,
  /** Attempts per call, the first included. */
  maxAttempts: 3,
  /** Pause before retry n (1-based) is random in [0, min(base * 2^(n-1), ceiling)]: full jitter. */
  retryPauseBaseMs: 50,
  retryPauseCeilingMs: 200,
} as const;

/** Kept back at the end of an invocation to render, log and return the answer after the last call. */
export const ANSWER_RESERVE_MS = 300;

/** The longest pause before retry `retry` (1-based). */
export function retryPauseCeilingMs(retry: number, limits = DYNAMO_LIMITS): number {
  return Math.min(limits.retryPauseBaseMs * 2 ** (retry - 1), limits.retryPauseCeilingMs);
}

/** The longest one DynamoDB call can take: every attempt timing out, every pause at its ceiling. */
export function worstCaseCallMs(limits = DYNAMO_LIMITS): number {
  let pauses = 0;
  for (let retry = 1; retry < limits.maxAttempts; retry += 1) pauses += retryPauseCeilingMs(retry, limits);
  return limits.maxAttempts * limits.requestTimeoutMs + pauses;
}

interface Budget {
  deadline: number;
}

const storage = new AsyncLocalStorage<Budget>();

/**
 * Runs one invocation within its budget: `remainingMs` is the function's remaining time
 * (`context.getRemainingTimeInMillis()`); the deadline keeps ANSWER_RESERVE_MS back.
 */
export function withTimeBudget<T>(remainingMs: number, fn: () => Promise<T>): Promise<T> {
  return storage.run({ deadline: Date.now() + remainingMs - ANSWER_RESERVE_MS }, fn);
}

/** Milliseconds left before the running invocation's deadline; undefined outside an invocation. */
export function remainingBudgetMs(): number | undefined {
  const budget = storage.getStore();
  return budget ? budget.deadline - Date.now() : undefined;
}

/** Throws TimeBudgetExhaustedError unless `needMs` fit before the deadline (always fits outside an invocation). */
export function ensureTimeLeft(needMs: number): void {
  const remaining = remainingBudgetMs();
  if (remaining !== undefined && remaining < needMs) throw new TimeBudgetExhaustedError();
}

type RetryStrategyV2 = Extract<NonNullable<DynamoDBClientConfig['retryStrategy']>, { refreshRetryTokenForRetry: unknown }>;
type RetryToken = Awaited<ReturnType<RetryStrategyV2['acquireInitialRetryToken']>>;

function retryToken(count: number, delay: number): RetryToken {
  return { getRetryCount: () => count, getRetryDelay: () => delay };
}

/**
 * The SDK's retries, bounded: at most DYNAMO_LIMITS.maxAttempts attempts, short jittered pauses
 * (the SDK's default waits up to 1 s, then 2 s, after throttling), and no retry whose pause and
 * attempt would not end before the invocation's deadline. Refusing a retry makes the SDK throw the
 * attempt's own error (a throttling or timeout: 503).
 */
export const budgetedRetryStrategy: RetryStrategyV2 = {
  acquireInitialRetryToken: async () => retryToken(0, 0),
  refreshRetryTokenForRetry: async (token, errorInfo) => {
    const retry = token.getRetryCount() + 1;
    const retryable = errorInfo.errorType === 'THROTTLING' || errorInfo.errorType === 'TRANSIENT';
    if (!retryable || retry >= DYNAMO_LIMITS.maxAttempts) throw new Error('No retry');
    const pause = Math.floor(Math.random() * retryPauseCeilingMs(retry));
    const remaining = remainingBudgetMs();
    if (remaining !== undefined && remaining < pause + DYNAMO_LIMITS.requestTimeoutMs) throw new Error('No time left for a retry');
    return retryToken(retry, pause);
  },
  recordSuccess: () => undefined,
};

/** The DynamoDB client settings of the budget: attempts, retry pauses and timeouts. */
export function budgetedClientConfig(endpoint: string | undefined, requestTimeoutMs: number = DYNAMO_LIMITS.requestTimeoutMs): DynamoDBClientConfig {
  return {
    endpoint,
    maxAttempts: DYNAMO_LIMITS.maxAttempts,
    retryStrategy: budgetedRetryStrategy,
    requestHandler: {
      connectionTimeout: DYNAMO_LIMITS.connectionTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Without it the SDK only logs a warning when a request outlasts requestTimeout.
      throwOnRequestTimeout: true,
    },
  };
}

/**
 * Refuses, before it is sent, any DynamoDB attempt that could not end (its full request timeout)
 * before the invocation's deadline. Runs per attempt (inside the SDK's retry loop).
 */
export function budgetDynamoClient(client: DynamoDBClient, requestTimeoutMs: number = DYNAMO_LIMITS.requestTimeoutMs): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      ensureTimeLeft(requestTimeoutMs);
      return next(args);
    },
    { step: 'finalizeRequest', priority: 'low', name: 'boxofficeTimeBudget', override: true },
  );
}
