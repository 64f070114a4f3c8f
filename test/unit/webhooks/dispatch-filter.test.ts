import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { dispatchFilterPattern, matchesDispatchFilter } from '../../../shared/webhooks/dispatch-filter.js';

const record = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', entity: string): DynamoDBRecord => ({ eventName, dynamodb: { NewImage: { entity: { S: entity } } } });

describe('dispatch filter', () => {
  it('lets through inserted outbox events and deliveries only', () => {
    expect(matchesDispatchFilter(record('INSERT', 'WebhookEvent'))).toBe(true);
    expect(matchesDispatchFilter(record('INSERT', 'WebhookDelivery'))).toBe(true);
    expect(matchesDispatchFilter(record('MODIFY', 'WebhookDelivery'))).toBe(false);
    expect(matchesDispatchFilter(record('INSERT', 'Invoice'))).toBe(false);
    expect(matchesDispatchFilter({ eventName: 'REMOVE', dynamodb: {} })).toBe(false);
  });

  it('is the Lambda filter pattern on the entity attribute', () => {
    expect(dispatchFilterPattern()).toEqual({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['WebhookEvent', 'WebhookDelivery'] } } } });
  });
});
