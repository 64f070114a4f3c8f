import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ScheduledEvent } from 'aws-lambda';
import { handler } from '../../../functions/event-end-sweeper/handler.js';
import { sweepEndedEvents } from '../../../shared/events/event-end-sweeper.js';
import { partnerListingKeys } from '../../../shared/events/event-partner-model.js';
import { logger } from '../../../shared/logger.js';
import { lambdaContext } from '../../../bin/local/api-gateway-event.js';
import { FUNCTION_TIMEOUT_MS } from '../../../shared/db/time-budget.js';

/**
 * The sweeper's control flow with the database mocked: which entries a run takes up, what a failure
 * costs the rest of the run, and what the scheduled function reports. The listing moves themselves
 * are shown against DynamoDB Local (integration/partner-listing-cost.test.ts, "the end sweeper").
 */

const ddbMock = mockClient(DynamoDBDocumentClient);
const NOW = new Date('2030-01-01T00:00:00Z');
const END = '2029-12-31T23:00:00.000Z';

/** An end-schedule entry as the Query returns it; its event is gone, so sweeping it deletes the entry. */
const entry = (eventId: string) => ({ ...partnerListingKeys.endSchedule('ws1', { id: eventId, end: END }), workspaceId: 'ws1', eventId });
const entries = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => entry(`${prefix}${String(index).padStart(2, '0')}`));
const eventIdOfGet = (input: { Key?: Record<string, unknown> }) => JSON.stringify(input.Key);
const sweptEventIds = () => ddbMock.commandCalls(TransactWriteCommand).map((call) => JSON.stringify(call.args[0].input.TransactItems));

beforeEach(() => {
  ddbMock.reset();
  vi.restoreAllMocks();
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(TransactWriteCommand).resolves({});
});

describe('sweepEndedEvents', () => {
  it('reads only the entries due by now, and deletes the entry of an event that no longer exists', async () => {
    // Prepare
    ddbMock.on(QueryCommand).resolves({ Items: [entry('e1')] });
    // Act
    const report = await sweepEndedEvents(NOW);
    // Assess
    const query = ddbMock.commandCalls(QueryCommand)[0]?.args[0].input;
    expect(query?.KeyConditionExpression).toMatch(/<=/);
    expect(Object.values(query?.ExpressionAttributeValues ?? {})).toEqual(expect.arrayContaining([partnerListingKeys.endSchedulePartition, expect.stringMatching(/^2030-01-01T00:00:00\.000Z#/)]));
    expect(report).toEqual({ swept: 1, written: 1, failed: 0 });
    expect(sweptEventIds()[0]).toContain('e1');
  });

  it('keeps going past a failed event, and does not take its entry up again in the same run', async () => {
    // Prepare: a full first batch whose first event fails; the next Query still returns its entry.
    const first = entries('a', 25);
    ddbMock.on(QueryCommand).resolvesOnce({ Items: first }).resolves({ Items: [entry('a00'), entry('b00')] });
    ddbMock.on(GetCommand).callsFake((input) => {
      if (eventIdOfGet(input).includes('a00')) throw new Error('socket hang up');
      return {};
    });
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    // Act
    const report = await sweepEndedEvents(NOW);
    // Assess
    expect(report).toEqual({ swept: 25, written: 25, failed: 1 });
    expect(ddbMock.commandCalls(GetCommand).filter((call) => eventIdOfGet(call.args[0].input).includes('a00'))).toHaveLength(1);
    expect(ddbMock.commandCalls(QueryCommand)[1]?.args[0].input.Limit).toBe(26);
    expect(sweptEventIds().some((items) => items.includes('b00'))).toBe(true);
    expect(logged).toHaveBeenCalledWith('Sweeping an ended event failed', expect.objectContaining({ workspaceId: 'ws1', eventId: 'a00' }));
  });

  it('starts no event once the caller says there is no time left, leaving the rest to the next run', async () => {
    // Prepare
    ddbMock.on(QueryCommand).resolves({ Items: entries('c', 5) });
    let budget = 2;
    // Act
    const report = await sweepEndedEvents(NOW, { hasTimeFor: () => budget-- > 0 });
    // Assess
    expect(report).toEqual({ swept: 2, written: 2, failed: 0 });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });
});

describe('event-end-sweeper handler', () => {
  // The deployed timeout: the handler starts no event it could not finish within what remains.
  const run = (timeoutMs: number = FUNCTION_TIMEOUT_MS.sweeper) => handler({} as ScheduledEvent, lambdaContext('boxoffice-event-end-sweeper', 'req-1', timeoutMs));

  it('logs a run with nothing due at debug only', async () => {
    // Prepare
    ddbMock.on(QueryCommand).resolves({ Items: [] });
    const info = vi.spyOn(logger, 'info');
    const debug = vi.spyOn(logger, 'debug');
    // Act
    const report = await run();
    // Assess
    expect(report).toEqual({ swept: 0, written: 0, failed: 0 });
    expect(info).not.toHaveBeenCalled();
    expect(debug).toHaveBeenCalledWith('Swept ended events', report);
  });

  it('logs a run that moved events at info', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [entry('d1')] });
    const info = vi.spyOn(logger, 'info');
    const report = await run();
    expect(report.swept).toBe(1);
    expect(info).toHaveBeenCalledWith('Swept ended events', report);
  });

  it('fails the run when an event could not be swept, so the error alarm fires and the entry stays for the next run', async () => {
    // Prepare
    ddbMock.on(QueryCommand).resolves({ Items: [entry('f1')] });
    ddbMock.on(TransactWriteCommand).rejects(new Error('socket hang up'));
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    // Act
    const outcome = run();
    // Assess
    await expect(outcome).rejects.toThrow('1 ended events could not be swept; they are retried next run');
  });

  it('starts no event with less time left than one event may take, and does not fail the run for it', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [entry('g1')] });
    const report = await run(5_000);
    expect(report).toEqual({ swept: 0, written: 0, failed: 0 });
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(0);
  });
});
