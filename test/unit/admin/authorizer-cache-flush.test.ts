import { APIGatewayClient, FlushStageAuthorizersCacheCommand } from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { flushAuthorizerCache, localApiUrl } from '../../../bin/admin/authorizer-cache.js';

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
  it('is the npm start server on $PORT, 3000 by default', () => {
    expect(localApiUrl({})).toBe('http://127.0.0.1:3000');
    expect(localApiUrl({ PORT: '3981' })).toBe('http://127.0.0.1:3981');
  });
});
