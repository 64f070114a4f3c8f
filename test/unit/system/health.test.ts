import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler } from '../../../functions/system/handler.js';
import { systemRoutes } from '../../../shared/http/routes/system.js';
import { HEALTH_PROBE_KEY } from '../../../shared/db/table-design.js';
import { apiEvent, context } from '../support/events.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
beforeEach(() => ddbMock.reset());

const health = async () => {
  const response = await handler(apiEvent({ route: systemRoutes.health, path: '/health/' }), context());
  return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, unknown> };
};

describe('GET /health/', () => {
  it('reads the probe key once, through the toolkit, with a deadline, and answers ok', async () => {
    // Prepare
    ddbMock.on(GetCommand).resolves({});

    // Act
    const { status, body } = await health();

    // Assess
    const calls = ddbMock.commandCalls(GetCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input.Key).toEqual(HEALTH_PROBE_KEY);
    expect(calls[0]!.args[0].input.ConsistentRead).toBe(false);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', db: 'connected' });
  });

  it('answers 200 degraded, never the cause, when DynamoDB fails', async () => {
    // Prepare
    ddbMock.on(GetCommand).rejects(new Error('ResourceNotFoundException: table boxoffice-secret-name'));

    // Act
    const { status, body } = await health();

    // Assess
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'degraded', db: 'disconnected' });
    expect(JSON.stringify(body)).not.toContain('secret');
  });
});
