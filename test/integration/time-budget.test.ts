import { createServer, type Server, type Socket } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../bin/local/api-gateway-event.js';
import { handler as propertiesHandler } from '../../functions/properties/handler.js';
import { propertiesRoutes } from '../../shared/http/routes/properties.js';
import { ANSWER_RESERVE_MS, DYNAMO_LIMITS, FUNCTION_TIMEOUT_MS, budgetDynamoClient, budgetedClientConfig, withTimeBudget } from '../../shared/db/time-budget.js';
import { renderError } from '../../shared/http/error-mapping.js';
import { newId } from '../../shared/ids.js';
import { apiEvent } from '../unit/support/events.js';

/** A "DynamoDB" that accepts connections and never answers: every attempt runs into its timeout. */
let blackHole: Server;
let endpoint: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  blackHole = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(blackHole.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => blackHole.close(resolve));
});

describe('a DynamoDB that does not answer', () => {
  it('is a 503 with Retry-After before the authorizer\'s (shortest) timeout, not a function timeout', async () => {
    // Prepare: the shared client's settings, against the black hole
    const client = new DynamoDBClient({ ...budgetedClientConfig(endpoint), region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    budgetDynamoClient(client);
    const started = Date.now();
    // Act
    const error = await withTimeBudget(FUNCTION_TIMEOUT_MS.authorizer, () => client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'a' }, SK: { S: 'b' } } })))
      .then(() => undefined, (failure: unknown) => failure);
    const elapsed = Date.now() - started;
    client.destroy();
    // Assess: the request timeout is enforced (not only logged), the attempts stop within the budget
    expect(error).toMatchObject({ name: 'TimeoutError' });
    expect(elapsed).toBeGreaterThanOrEqual(DYNAMO_LIMITS.requestTimeoutMs);
    expect(elapsed).toBeLessThan(FUNCTION_TIMEOUT_MS.authorizer - ANSWER_RESERVE_MS);
    const rendered = renderError(error);
    expect(rendered.statusCode).toBe(503);
    expect(rendered.headers['Retry-After']).toBe('1');
  }, 20_000);
});

describe('a request whose function is about to time out', () => {
  it('answers 503 with Retry-After instead of starting a DynamoDB attempt it could not finish', async () => {
    // Prepare: less time left than one DynamoDB attempt needs
    const route = propertiesRoutes.getProperty;
    const event = apiEvent({ route, path: `/v1/properties/${newId()}`, workspaceId: newId() });
    const context = lambdaContext('boxoffice-properties', 'req-budget', ANSWER_RESERVE_MS + DYNAMO_LIMITS.requestTimeoutMs / 2);
    // Act
    const response = await propertiesHandler(event, context);
    // Assess
    expect(response.statusCode).toBe(503);
    expect(response.headers?.['Retry-After']).toBe('1');
    expect(JSON.parse(response.body).error.code).toBe('service_unavailable');
  });
});
