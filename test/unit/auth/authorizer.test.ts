import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { handler } from '../../../functions/authorizer/handler.js';
import { policyAllows } from '../../../bin/local/policy-evaluation.js';
import { hashApiKey } from '../../../shared/auth/api-keys.js';
import { usagePlanKeyOf } from '../../../shared/auth/usage-plan-keys.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
const KEY = 'bo_live_' + 'K'.repeat(40);
const ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod';

function authEvent(method: string, path: string, authorization?: string): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: `${ARN}/${method}${path}`,
    headers: authorization ? { authorization } : {},
  } as unknown as APIGatewayRequestAuthorizerEvent;
}

function storedKey(scope: string, extra: Record<string, unknown> = {}) {
  return { Item: { keyId: 'k1', workspaceId: 'w1', scope, displayPrefix: 'bo_live_KKKK', createdAt: '2026-01-01T00:00:00Z', ...extra } };
}

beforeEach(() => ddbMock.reset());

describe('API key authorizer', () => {
  it('looks the key up by its SHA-256 hash with one GetItem and passes the workspace on', async () => {
    // Prepare
    ddbMock.on(GetCommand).resolves(storedKey('read_write'));
    // Act
    const result = await handler(authEvent('POST', '/v1/forms', `Bearer ${KEY}`));
    // Assess
    const calls = ddbMock.commandCalls(GetCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input.Key).toEqual({ PK: `APIKEY#${hashApiKey(KEY)}`, SK: 'APIKEY' });
    expect(JSON.stringify(calls[0]!.args[0].input)).not.toContain(KEY);
    expect(result.context).toEqual({ workspaceId: 'w1', keyId: 'k1', scope: 'read_write' });
  });

  it('names the workspace\'s usage plan key (usageIdentifierKey), the same for every key of the workspace and stage', async () => {
    // Prepare
    ddbMock.on(GetCommand).resolvesOnce(storedKey('read_write')).resolvesOnce(storedKey('read_only', { keyId: 'k2' }));

    // Act
    const first = await handler(authEvent('GET', '/v1', `Bearer ${KEY}`));
    const second = await handler(authEvent('POST', '/v1/forms', `Bearer ${KEY}`));

    // Assess
    expect(first.usageIdentifierKey).toBe(usagePlanKeyOf('prod', 'w1').value);
    expect(second.usageIdentifierKey).toBe(first.usageIdentifierKey);
    expect(first.usageIdentifierKey).not.toBe(usagePlanKeyOf('dev', 'w1').value);
    expect(first.usageIdentifierKey!.length).toBeGreaterThanOrEqual(20);
  });

  it('allows every method of the stage for a read-write key, so the cached policy fits all requests', async () => {
    ddbMock.on(GetCommand).resolves(storedKey('read_write'));
    const result = await handler(authEvent('GET', '/v1', `Bearer ${KEY}`));
    expect(policyAllows(result, `${ARN}/DELETE/v1/forms/x`)).toBe(true);
    expect(policyAllows(result, `${ARN}/GET/v1`)).toBe(true);
  });

  it('allows only safe methods for a read-only key, whatever request produced the cached policy', async () => {
    ddbMock.on(GetCommand).resolves(storedKey('read_only'));
    const result = await handler(authEvent('GET', '/v1', `Bearer ${KEY}`));
    expect(policyAllows(result, `${ARN}/GET/v1/forms`)).toBe(true);
    expect(policyAllows(result, `${ARN}/POST/v1/forms`)).toBe(false);
    expect(policyAllows(result, `${ARN}/PATCH/v1/forms/x`)).toBe(false);
    expect(policyAllows(result, `${ARN}/DELETE/v1/forms/x`)).toBe(false);
  });

  it.each([
    ['no header', undefined],
    ['a malformed key', 'Bearer nope'],
  ])('rejects %s as Unauthorized without a database call', async (_label, header) => {
    await expect(handler(authEvent('GET', '/v1', header))).rejects.toThrow('Unauthorized');
    expect(ddbMock.calls()).toHaveLength(0);
  });

  it('rejects an unknown key as Unauthorized', async () => {
    ddbMock.on(GetCommand).resolves({});
    await expect(handler(authEvent('GET', '/v1', `Bearer ${KEY}`))).rejects.toThrow('Unauthorized');
  });

  it('rejects a revoked key as Unauthorized', async () => {
    ddbMock.on(GetCommand).resolves(storedKey('read_write', { revokedAt: '2026-02-01T00:00:00Z' }));
    await expect(handler(authEvent('GET', '/v1', `Bearer ${KEY}`))).rejects.toThrow('Unauthorized');
  });

  it('reads the key eventually consistent: the one GetItem costs half a strong read', async () => {
    ddbMock.on(GetCommand).resolves(storedKey('read_only'));
    await handler(authEvent('GET', '/v1', `Bearer ${KEY}`));
    expect(ddbMock.commandCalls(GetCommand)[0]!.args[0].input.ConsistentRead).toBe(false);
  });

  it('treats a stored scope it does not know as read-only, never as the whole stage', async () => {
    // Prepare: a damaged record must not widen what the key may do.
    ddbMock.on(GetCommand).resolves(storedKey('admin'));
    // Act
    const result = await handler(authEvent('GET', '/v1', `Bearer ${KEY}`));
    // Assess
    expect(policyAllows(result, `${ARN}/GET/v1/forms`)).toBe(true);
    expect(policyAllows(result, `${ARN}/POST/v1/forms`)).toBe(false);
    expect(result.context).toMatchObject({ scope: 'read_only' });
  });

  it('fails (not 401) when the key store is unreachable, so the gateway answers 503', async () => {
    ddbMock.on(GetCommand).rejects(new Error('connect ECONNREFUSED'));
    await expect(handler(authEvent('GET', '/v1', `Bearer ${KEY}`))).rejects.not.toThrow('Unauthorized');
  });
});

describe('policyAllows', () => {
  const policy = (effect: 'Allow' | 'Deny', resource: string): APIGatewayAuthorizerResult => ({
    principalId: 'p',
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: [resource] }] },
  });

  it('lets an explicit Deny win over an Allow', () => {
    const result = policy('Allow', `${ARN}/*`);
    result.policyDocument.Statement.push({ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: [`${ARN}/POST/*`] });
    expect(policyAllows(result, `${ARN}/POST/v1/forms`)).toBe(false);
    expect(policyAllows(result, `${ARN}/GET/v1/forms`)).toBe(true);
  });

  it('denies what no statement allows', () => {
    expect(policyAllows(policy('Allow', `${ARN}/GET/*`), `${ARN}/PUT/v1/x`)).toBe(false);
  });
});
