import { TransactionCanceledException, TransactionConflictException, TransactionInProgressException, ThrottlingException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ItemTooLargeError } from '../../../shared/db/transaction.js';
import { TimeBudgetExhaustedError } from '../../../shared/errors.js';
import { renderError } from '../../../shared/http/error-mapping.js';
import { PartnerListingFailedError } from '../../../shared/partners/partner-errors.js';

const cancelled = (...codes: string[]) => new TransactionCanceledException({ message: 'cancelled', $metadata: { httpStatusCode: 400 }, CancellationReasons: codes.map((Code) => ({ Code })) });

describe('error mapping of DynamoDB failures', () => {
  it.each([
    ['a transaction cancelled for throttling', cancelled('None', 'ThrottlingError')],
    ['a transaction cancelled for provisioned throughput', cancelled('ProvisionedThroughputExceeded')],
    ['a transaction that lost a race', cancelled('TransactionConflict')],
    ['a single write refused by a transaction in progress', new TransactionConflictException({ message: 'x', $metadata: { httpStatusCode: 400 } })],
    ['a transaction token still in progress', new TransactionInProgressException({ message: 'x', $metadata: { httpStatusCode: 400 } })],
    ['throttling after the SDK\'s attempts', new ThrottlingException({ message: 'x', $metadata: { httpStatusCode: 400 } })],
    ['a timeout', Object.assign(new Error('timed out'), { name: 'TimeoutError', $metadata: {} })],
    ['a dropped connection', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', $metadata: {} })],
    ['a request that ran out of time budget', new TimeBudgetExhaustedError()],
  ])('answers %s with 503 service_unavailable and Retry-After', (_name, error) => {
    const rendered = renderError(error);
    expect(rendered.statusCode).toBe(503);
    expect(rendered.headers['Retry-After']).toBe('1');
    expect(JSON.parse(rendered.body).error.code).toBe('service_unavailable');
  });

  it('answers a failed condition that escaped its repository with 409, and an unexplained cancellation with a generic 500', () => {
    expect(renderError(cancelled('None', 'ConditionalCheckFailed')).statusCode).toBe(409);
    const unknown = renderError(cancelled('ValidationError'));
    expect(unknown.statusCode).toBe(500);
    expect(unknown.body).not.toContain('ValidationError');
  });

  it('answers an item above the 400 KB limit that no domain named with 422 validation_failed, never 500, without naming the datastore', () => {
    const rendered = renderError(new ItemTooLargeError());
    expect(rendered.statusCode).toBe(422);
    const { error } = JSON.parse(rendered.body) as { error: { code: string; message: string } };
    expect(error).toMatchObject({ code: 'validation_failed', message: 'The resource is too large to store: shorten its text fields.' });
    expect(rendered.body).not.toMatch(/dynamo|400 KB/i);
  });

  it('keeps the partner listing\'s spec 500 on a database failure, with Retry-After; not on a bug', () => {
    const database = renderError(new PartnerListingFailedError(true), 'flat');
    expect(database.statusCode).toBe(500);
    expect(JSON.parse(database.body)).toMatchObject({ status: 500, error: 'INTERNAL_SERVER_ERROR' });
    expect(database.headers['Retry-After']).toBe('1');
    expect(renderError(new PartnerListingFailedError(false), 'flat').headers['Retry-After']).toBeUndefined();
  });
});
