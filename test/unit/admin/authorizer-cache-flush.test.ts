import { APIGatewayClient, FlushStageAuthorizersCacheCommand } from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { flushAuthorizerCache, localApiUrl } from '../../../bin/admin/authorizer-cache.js';
import { forgetRunningApi, recordRunningApi, runningApiUrl } from '../../../bin/local/running-apis.js';

const apiGateway = mockClient(APIGatewayClient);

beforeEach(() => {
  apiGateway.reset();
  apiGateway.on(FlushStageAuthorizersCacheCommand).resolves({});
});

describe('flushAuthorizerCache with --aws', () => {
  it('flushes the named stage\'s authorizer cache', async () => {
    // Act
    const flush = await flushAuthorizerCache({ aws: true, stage: { restApiId: 'abc123', stage: 'prod' } });
    // Assess
    expect(flush).toBe('flushed');
    expect(apiGateway.commandCalls(FlushStageAuthorizersCacheCommand).map((call) => call.args[0].input)).toEqual([{ restApiId: 'abc123', stageName: 'prod' }]);
  });

  it('says the stage must be named, and calls nothing, without REST_API_ID and API_STAGE', async () => {
    // Act
    const flush = await flushAuthorizerCache({ aws: true, stage: undefined });
    // Assess
    expect(flush).toBe('no-stage');
    expect(apiGateway.calls()).toHaveLength(0);
  });
});

describe('localApiUrl', () => {
  it('is the npm start server on $PORT, else the one recorded for the CLI\'s DynamoDB, else port 3000', () => {
    expect(localApiUrl({}, undefined)).toBe('http://127.0.0.1:3000');
    expect(localApiUrl({ PORT: '3981' }, 'http://127.0.0.1:4100')).toBe('http://127.0.0.1:3981');
    expect(localApiUrl({}, 'http://127.0.0.1:4100')).toBe('http://127.0.0.1:4100');
  });
});

describe('the running APIs record', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'running-apis-')), 'running-apis.json');

  it('finds each server by the DynamoDB it serves, and forgets one only while the record is still its own', () => {
    // Act
    recordRunningApi('http://127.0.0.1:8101', 'http://127.0.0.1:3101', file);
    recordRunningApi('http://127.0.0.1:8102', 'http://127.0.0.1:3102', file);
    recordRunningApi('http://127.0.0.1:8102', 'http://127.0.0.1:3202', file);
    forgetRunningApi('http://127.0.0.1:8102', 'http://127.0.0.1:3102', file);
    forgetRunningApi('http://127.0.0.1:8101', 'http://127.0.0.1:3101', file);
    // Assess
    expect(runningApiUrl('http://127.0.0.1:8101', file)).toBeUndefined();
    expect(runningApiUrl('http://127.0.0.1:8102', file)).toBe('http://127.0.0.1:3202');
    expect(runningApiUrl('http://127.0.0.1:8103', join(file, '..', 'absent.json'))).toBeUndefined();
  });
});
