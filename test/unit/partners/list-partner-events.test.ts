import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { handler } from '../../../functions/partner/handler.js';
import { partnerRoutes } from '../../../shared/http/routes/partner.js';
import { apiEvent, context } from '../support/events.js';

const ddbMock = mockClient(DynamoDBDocumentClient);
beforeEach(() => ddbMock.reset());

const call = (query: string) => handler(apiEvent({ route: partnerRoutes.listPartnerEvents, path: `/partner/events?${query}` }), context());

describe('GET /partner/events failures', () => {
  it('answers a database failure with the generic flat 500 and CORS, never the cause', async () => {
    // Prepare
    ddbMock.on(QueryCommand).rejects(new Error('socket hang up: secret internals'));
    // Act
    const response = await call('referral_code=P1');
    // Assess
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ status: 500, error: 'INTERNAL_SERVER_ERROR', message: expect.stringMatching(/try again later/i) });
    expect(response.body).not.toContain('secret');
    expect(response.headers?.['Access-Control-Allow-Origin']).toBe('*');
    expect(response.headers?.['Cache-Control']).toBe('no-store');
  });

  it('answers a missing referral code without touching the database', async () => {
    const response = await call('page=1');
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).error).toBe('REFERRAL_CODE_REQUIRED');
    expect(ddbMock.calls()).toHaveLength(0);
  });
});
