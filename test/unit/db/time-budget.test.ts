import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  ANSWER_RESERVE_MS, DYNAMO_LIMITS, budgetDynamoClient, budgetedClientConfig, ensureTimeLeft, remainingBudgetMs, retryPauseCeilingMs,
  withTimeBudget, worstCaseCallMs,
} from '../../../shared/db/time-budget.js';
import { TimeBudgetExhaustedError } from '../../../shared/errors.js';
import { renderError } from '../../../shared/http/error-mapping.js';
import { loadConfig } from '../../../shared/config.js';

/** A DynamoDB client set up like the shared one, whose every attempt times out after `attemptMs`. */
function timingOutClient(attemptMs: number) {
  const attempts: number[] = [];
  const client = new DynamoDBClient({
    ...budgetedClientConfig('http://127.0.0.1:1'),
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    requestHandler: {
      handle: async () => {
        attempts.push(Date.now());
        await new Promise((resolve) => setTimeout(resolve, attemptMs));
        throw Object.assign(new Error('request timed out'), { name: 'TimeoutError' });
      },
    },
  });
  budgetDynamoClient(client);
  const get = () => client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'a' }, SK: { S: 'b' } } }));
  return { attempts, get };
}

describe('time budget', () => {
  it('makes at most the configured attempts, with short pauses, when there is time for them', async () => {
    const { attempts, get } = timingOutClient(5);
    await expect(withTimeBudget(60_000, get)).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(attempts).toHaveLength(DYNAMO_LIMITS.maxAttempts);
  });

  it('starts no retry that could not end before the deadline: the attempt\'s own error is the answer (503)', async () => {
    // Prepare: time for one attempt of up to requestTimeout, but not for a pause and a second one
    const { attempts, get } = timingOutClient(100);
    // Act
    const failure = withTimeBudget(ANSWER_RESERVE_MS + DYNAMO_LIMITS.requestTimeoutMs + 50, get);
    // Assess
    await expect(failure).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(attempts).toHaveLength(1);
    expect(renderError(await failure.catch((error: unknown) => error)).statusCode).toBe(503);
  });

  it('sends nothing when not even one attempt fits: a 503 with Retry-After instead of a function timeout', async () => {
    const { attempts, get } = timingOutClient(5);
    const failure = withTimeBudget(ANSWER_RESERVE_MS + DYNAMO_LIMITS.requestTimeoutMs / 2, get);
    await expect(failure).rejects.toBeInstanceOf(TimeBudgetExhaustedError);
    expect(attempts).toHaveLength(0);
    const rendered = renderError(await failure.catch((error: unknown) => error));
    expect(rendered.statusCode).toBe(503);
    expect(rendered.headers['Retry-After']).toBe('1');
  });

  it('keeps the answer reserve back from the function\'s remaining time, and has no deadline outside an invocation', async () => {
    expect(remainingBudgetMs()).toBeUndefined();
    expect(() => ensureTimeLeft(1_000_000)).not.toThrow();
    await withTimeBudget(5_000, async () => {
      const remaining = remainingBudgetMs() as number;
      expect(remaining).toBeLessThanOrEqual(5_000 - ANSWER_RESERVE_MS);
      expect(remaining).toBeGreaterThan(5_000 - ANSWER_RESERVE_MS - 100);
      expect(() => ensureTimeLeft(10_000)).toThrow(TimeBudgetExhaustedError);
    });
  });

  it('bounds one call: every attempt timing out plus every pause at its ceiling', () => {
    expect(retryPauseCeilingMs(1)).toBe(DYNAMO_LIMITS.retryPauseBaseMs);
    expect(retryPauseCeilingMs(10)).toBe(DYNAMO_LIMITS.retryPauseCeilingMs);
    expect(worstCaseCallMs()).toBe(DYNAMO_LIMITS.maxAttempts * DYNAMO_LIMITS.requestTimeoutMs + retryPauseCeilingMs(1) + retryPauseCeilingMs(2));
  });
});

describe('DynamoDB Local attempt timeout (DYNAMODB_REQUEST_TIMEOUT_MS)', () => {
  it('keeps the deployed 1 s attempt timeout in AWS, gives DynamoDB Local 4 s, lets the variable choose, and refuses a malformed one', () => {
    // Prepare
    const base = { TABLE_NAME: 't' };

    // Act
    const deployed = loadConfig(base);
    const local = loadConfig({ ...base, DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' });
    const chosen = loadConfig({ ...base, DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000', DYNAMODB_REQUEST_TIMEOUT_MS: '2500' });

    // Assess
    expect(deployed.dynamoRequestTimeoutMs).toBeUndefined();
    expect(chosen.dynamoRequestTimeoutMs).toBe(2500);
    expect((budgetedClientConfig(undefined, deployed.dynamoRequestTimeoutMs).requestHandler as { requestTimeout: number }).requestTimeout).toBe(DYNAMO_LIMITS.requestTimeoutMs);
    expect((budgetedClientConfig('http://127.0.0.1:8000', local.dynamoRequestTimeoutMs).requestHandler as { requestTimeout: number }).requestTimeout).toBe(4000);
    expect(() => loadConfig({ ...base, DYNAMODB_REQUEST_TIMEOUT_MS: '4s' })).toThrow(/DYNAMODB_REQUEST_TIMEOUT_MS must be a positive integer/);
  });

  it('starts no attempt that its own, longer timeout could not finish before the deadline', async () => {
    // Prepare
    const client = new DynamoDBClient({ ...budgetedClientConfig('http://127.0.0.1:1', 4000), region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    budgetDynamoClient(client, 4000);

    // Act
    const failure = withTimeBudget(ANSWER_RESERVE_MS + 2000, () => client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'a' } } })));

    // Assess
    await expect(failure).rejects.toBeInstanceOf(TimeBudgetExhaustedError);
  });
});
