import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RetryControl } from '../../../shared/webhooks/delivery-queue.js';
import { createSender, senderSettings } from '../../../shared/webhooks/sender.js';
import {
  toDeliveryItem, toEndpointItem, toEventItem, webhookKeys, type StoredDelivery, type StoredEndpoint,
} from '../../../shared/webhooks/webhook-model.js';
import { newWebhookSecret, secretCipher } from '../../../shared/webhooks/webhook-secrets.js';

const ddb = mockClient(DynamoDBDocumentClient);
const WS = 'a'.repeat(24);
const ENDPOINT = 'b'.repeat(24);
const DELIVERY = 'c'.repeat(24);
const EVENT = '6740f1a2c3d4e5f601234567';
const BODY = JSON.stringify({ id: EVENT, type: 'invoice.paid', timestamp: '2027-01-01T00:00:00.000Z', data: { object: { id: 'x' } } });

let server: Server;
let status = 200;
/** What the receiver answers in its body; its default is short. */
let answer: string | undefined;
/** How long the receiver takes to answer. */
let delayMs = 0;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
      setTimeout(() => response.writeHead(status).end(answer ?? (status === 200 ? 'thanks' : 'down')), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  ddb.reset();
  received.length = 0;
  status = 200;
  answer = undefined;
  delayMs = 0;
});

async function givenEndpoint(secret: string, overrides: Partial<StoredEndpoint> = {}) {
  const cipher = await secretCipher();
  const endpoint: StoredEndpoint = {
    id: ENDPOINT, url, events: ['*'], status: 'enabled', createdAt: '2027-01-01T00:00:00.000Z', updatedAt: '2027-01-01T00:00:00.000Z',
    secretCiphertext: await cipher.encrypt(secret, { workspaceId: WS, endpointId: ENDPOINT }), ...overrides,
  };
  ddb.on(GetCommand, { Key: webhookKeys.endpoint(WS, ENDPOINT) }).resolves({ Item: toEndpointItem(WS, endpoint) });
}

function givenDelivery(overrides: Partial<StoredDelivery> = {}) {
  const delivery: StoredDelivery = {
    id: DELIVERY, workspaceId: WS, endpointId: ENDPOINT, eventId: EVENT, type: 'invoice.paid', status: 'pending', attempts: 0, createdAt: '2027-01-01T00:00:00.000Z', ...overrides,
  };
  ddb.on(GetCommand, { Key: webhookKeys.delivery(WS, ENDPOINT, DELIVERY) }).resolves({ Item: toDeliveryItem(delivery, new Date()) });
  ddb.on(GetCommand, { Key: webhookKeys.event(WS, EVENT) }).resolves({ Item: toEventItem({ id: EVENT, type: 'invoice.paid', workspaceId: WS, timestamp: '2027-01-01T00:00:00.000Z', body: BODY }, new Date()) });
  ddb.on(UpdateCommand).resolves({ Attributes: {} });
}

const record = (body = JSON.stringify({ workspaceId: WS, endpointId: ENDPOINT, deliveryId: DELIVERY })) => ({ messageId: 'm1', receiptHandle: 'r1', body }) as SQSRecord;

function retries(): RetryControl & { calls: [string, number][]; deadLettered: string[] } {
  const calls: [string, number][] = [];
  const deadLettered: string[] = [];
  return {
    calls,
    deadLettered,
    retryAfter: async (handle, delay) => { calls.push([handle, delay]); },
    deadLetter: async (body) => { deadLettered.push(body); },
  };
}

const settings = senderSettings({ baseMs: 1_000, factor: 2, capMs: 8_000, jitter: 0 }, { policy: 'local', timeoutMs: 10_000 });
const updates = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);

describe('webhook sender', () => {
  it('POSTs the stored body signed with the endpoint\'s secret and records the success', async () => {
    // Prepare
    const secret = newWebhookSecret();
    await givenEndpoint(secret);
    givenDelivery();
    // Act
    const result = await createSender(settings, retries())({ Records: [record()] });
    // Assess
    expect(result.batchItemFailures).toEqual([]);
    expect(received).toHaveLength(1);
    expect(received[0]?.body).toBe(BODY);
    expect(new Webhook(secret).verify(BODY, received[0]?.headers as Record<string, string>)).toEqual(JSON.parse(BODY));
    expect(updates()[0]?.ExpressionAttributeValues).toMatchObject({ ':pending': 'pending', ':read': 0 });
    expect(Object.values(updates()[0]?.ExpressionAttributeValues ?? {})).toEqual(expect.arrayContaining(['succeeded', 1, 200, 'thanks']));
  });

  it('schedules the next attempt through the queue after a failure and keeps the message', async () => {
    // Prepare
    status = 500;
    await givenEndpoint(newWebhookSecret());
    givenDelivery({ attempts: 2 });
    const control = retries();
    // Act
    const result = await createSender(settings, control)({ Records: [record()] });
    // Assess
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
    expect(control.calls).toEqual([['r1', 4_000]]);
    expect(control.deadLettered).toEqual([]);
    expect(Object.values(updates()[0]?.ExpressionAttributeValues ?? {})).toEqual(expect.arrayContaining(['pending', 3, 500, 'the receiver answered HTTP 500']));
  });

  it('shows the next attempt counted from the end of a slow attempt, as the queue counts its delay', async () => {
    // Prepare: the receiver takes 400 ms to answer 500
    status = 500;
    delayMs = 400;
    await givenEndpoint(newWebhookSecret());
    givenDelivery({ attempts: 2 });
    const control = retries();
    // Act
    await createSender(settings, control)({ Records: [record()] });
    const released = Date.now();
    // Assess: the message comes back 4 s after its release; the delivery says no earlier than that
    expect(control.calls).toEqual([['r1', 4_000]]);
    const shown = Object.values(updates()[0]?.ExpressionAttributeValues ?? {}).find((value) => typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) && Date.parse(value) > released);
    expect(Date.parse(shown as string)).toBeGreaterThanOrEqual(released - 50 + 4_000);
    expect(Date.parse(shown as string)).toBeLessThanOrEqual(released + 4_000);
  });

  it('keeps only the first 4 KiB of a long response on the delivery', async () => {
    // Prepare: a receiver answering 500 with 40 KiB (under the 64 KiB read limit, so all of it is read)
    status = 500;
    answer = 'x'.repeat(4 * 1024) + 'y'.repeat(36 * 1024);
    await givenEndpoint(newWebhookSecret());
    givenDelivery();
    // Act
    await createSender(settings, retries())({ Records: [record()] });
    // Assess
    expect(Object.values(updates()[0]?.ExpressionAttributeValues ?? {})).toContain('x'.repeat(4 * 1024));
    expect(JSON.stringify(updates()[0])).not.toContain('xy');
  });

  it('deploys with the contract\'s limits: 10 s to answer, at most 64 KiB read, 4 KiB kept', () => {
    // Act
    const deployed = senderSettings({ baseMs: 30_000, factor: 4, capMs: 36_000_000, jitter: 0.2 });
    // Assess
    expect(deployed).toMatchObject({ timeoutMs: 10_000, maxResponseBytes: 64 * 1024, storedResponseBytes: 4 * 1024 });
  });

  it('marks the delivery failed after the 8th attempt and moves the message to the dead-letter queue (its alarm fires)', async () => {
    // Prepare
    status = 500;
    await givenEndpoint(newWebhookSecret());
    givenDelivery({ attempts: 7 });
    const control = retries();
    // Act
    const result = await createSender(settings, control)({ Records: [record()] });
    // Assess
    expect(result.batchItemFailures).toEqual([]);
    expect(control.calls).toEqual([]);
    expect(control.deadLettered).toEqual([record().body]);
    expect(Object.values(updates()[0]?.ExpressionAttributeValues ?? {})).toEqual(expect.arrayContaining(['failed', 8]));
    expect(updates()[0]?.UpdateExpression).toContain('REMOVE');
  });

  it('keeps the message when the move to the dead-letter queue fails, and dead-letters it without a 9th attempt when it comes back', async () => {
    // Prepare
    status = 500;
    await givenEndpoint(newWebhookSecret());
    givenDelivery({ attempts: 7 });
    const refusing = { ...retries(), deadLetter: async () => { throw new Error('SQS unavailable'); } };
    // Act
    const first = await createSender(settings, refusing)({ Records: [record()] });
    givenDelivery({ status: 'failed', attempts: 8 });
    const control = retries();
    const second = await createSender(settings, control)({ Records: [record()] });
    // Assess
    expect(first.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
    expect(second.batchItemFailures).toEqual([]);
    expect(control.deadLettered).toEqual([record().body]);
    expect(received).toHaveLength(1);
  });

  it('dead-letters nothing when another copy of the message recorded the 8th attempt first', async () => {
    // Prepare
    status = 500;
    await givenEndpoint(newWebhookSecret());
    givenDelivery({ attempts: 7 });
    ddb.on(UpdateCommand).rejects(Object.assign(new ConditionalCheckFailedException({ message: 'moved', $metadata: {} })));
    const control = retries();
    // Act
    const result = await createSender(settings, control)({ Records: [record()] });
    // Assess
    expect(result.batchItemFailures).toEqual([]);
    expect(control.deadLettered).toEqual([]);
  });

  it('sends nothing for a delivery that is no longer pending (a duplicate message), and dead-letters nothing', async () => {
    await givenEndpoint(newWebhookSecret());
    givenDelivery({ status: 'succeeded', attempts: 1 });
    const control = retries();
    await expect(createSender(settings, control)({ Records: [record()] })).resolves.toEqual({ batchItemFailures: [] });
    expect(received).toEqual([]);
    expect(control.deadLettered).toEqual([]);
  });

  it('sends nothing once the endpoint is deleted', async () => {
    givenDelivery();
    ddb.on(GetCommand, { Key: webhookKeys.endpoint(WS, ENDPOINT) }).resolves({});
    await expect(createSender(settings, retries())({ Records: [record()] })).resolves.toEqual({ batchItemFailures: [] });
    expect(received).toEqual([]);
  });

  it('signs with the previous secret too while it is valid, and not after', async () => {
    // Prepare
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const cipher = await secretCipher();
    const previousSecretCiphertext = await cipher.encrypt(previous, { workspaceId: WS, endpointId: ENDPOINT });
    givenDelivery();
    // Act
    await givenEndpoint(current, { previousSecretCiphertext, previousSecretExpiresAt: new Date(Date.now() + 60_000).toISOString() });
    await createSender(settings, retries())({ Records: [record()] });
    await givenEndpoint(current, { previousSecretCiphertext, previousSecretExpiresAt: new Date(Date.now() - 1_000).toISOString() });
    givenDelivery();
    await createSender(settings, retries())({ Records: [record()] });
    // Assess
    const [during, after] = received.map((request) => request.headers as Record<string, string>);
    expect(during?.['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(() => new Webhook(previous).verify(BODY, during as Record<string, string>)).not.toThrow();
    expect(after?.['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(() => new Webhook(previous).verify(BODY, after as Record<string, string>)).toThrow();
  });

  it('reports a crashed attempt (the message comes back after the visibility timeout) and drops an unreadable message', async () => {
    ddb.on(GetCommand).rejects(new Error('DynamoDB unreachable'));
    const result = await createSender(settings, retries())({ Records: [record(), { ...record('not json'), messageId: 'm2' }] });
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
  });
});
