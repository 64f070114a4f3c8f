import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../logger.js';
import type { RetryControl } from './delivery-queue.js';
import { postWebhook } from './http-delivery.js';
import { MAX_ATTEMPTS, retryDelayMs, type RetrySchedule } from './retry-schedule.js';
import { deliveryHeaders } from './signature.js';
import { currentUrlPolicy, type Lookup, type UrlPolicy } from './url-guard.js';
import type { DeliveryMessage, StoredEndpoint } from './webhook-model.js';
import { secretCipher } from './webhook-secrets.js';
import { getDelivery, getEndpoint, getEvent, recordAttempt, type AttemptOutcome } from './webhooks-repository.js';

export interface SenderSettings {
  schedule: RetrySchedule;
  /** Any 2xx within this is success (API.md: 10 s). */
  timeoutMs: number;
  /** Response bytes read at most (64 KiB). */
  maxResponseBytes: number;
  /** Response bytes kept on the delivery (4 KiB). */
  storedResponseBytes: number;
  policy: UrlPolicy;
  lookup?: Lookup;
}

export const DELIVERY_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;
export const STORED_RESPONSE_BYTES = 4 * 1024;

export function senderSettings(schedule: RetrySchedule, overrides: Partial<SenderSettings> = {}): SenderSettings {
  return {
    schedule, timeoutMs: DELIVERY_TIMEOUT_MS, maxResponseBytes: MAX_RESPONSE_BYTES, storedResponseBytes: STORED_RESPONSE_BYTES, policy: currentUrlPolicy(), ...overrides,
  };
}

/** The secrets that sign now: the current one, and the previous one during the 24 h after a rotation. */
async function signingSecrets(workspaceId: string, endpoint: StoredEndpoint, now: Date): Promise<string[]> {
  const cipher = await secretCipher();
  const owner = { workspaceId, endpointId: endpoint.id };
  const secrets = [await cipher.decrypt(endpoint.secretCiphertext, owner)];
  if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && Date.parse(endpoint.previousSecretExpiresAt) > now.getTime()) {
    secrets.push(await cipher.decrypt(endpoint.previousSecretCiphertext, owner));
  }
  return secrets;
}

/** The first bytes of a response as text, for the delivery's `lastResponseBody`. */
function excerpt(body: Buffer | undefined, limit: number): string | undefined {
  if (!body || body.length === 0) return undefined;
  return body.subarray(0, limit).toString('utf8');
}

/**
 * What to do with the message after an attempt: forget it, see it again after a delay, or (the
 * delivery failed its whole schedule) move it to the dead-letter queue, whose alarm fires.
 */
export type AttemptVerdict = { done: true; deadLetter?: true } | { done: false; retryAfterMs: number };

const exhausted = (delivery: { status: string; attempts: number }) => delivery.status === 'failed' && delivery.attempts >= MAX_ATTEMPTS;

/**
 * One attempt of one delivery. The delivery item is the source of truth (the message only names it):
 * a delivery no longer pending, of a deleted endpoint, or a duplicate message sends nothing. Each
 * attempt is written back (attempts, last status or error, next attempt) before the message is
 * released, rescheduled or dead-lettered. A message of a delivery that already failed its schedule
 * (its move to the dead-letter queue itself failed, so it came back) is dead-lettered again.
 */
export async function attemptDelivery(message: DeliveryMessage, settings: SenderSettings, now = new Date()): Promise<AttemptVerdict> {
  const delivery = await getDelivery(message.workspaceId, message.endpointId, message.deliveryId, { consistent: true });
  if (delivery && exhausted(delivery)) return { done: true, deadLetter: true };
  if (!delivery || delivery.status !== 'pending') return { done: true };
  const endpoint = await getEndpoint(message.workspaceId, message.endpointId, { consistent: true });
  // Deleted: nothing more is sent, and the delivery is no longer visible through the API anyway.
  if (!endpoint) return { done: true };
  const give = async (outcome: Omit<AttemptOutcome, 'attempts'> & { attempts?: number }) => {
    await recordAttempt(delivery, { attempts: delivery.attempts, ...outcome }, now);
    return { done: true } as const;
  };
  if (endpoint.status !== 'enabled') return give({ status: 'failed', lastError: 'the endpoint was disabled' });
  const event = await getEvent(message.workspaceId, delivery.eventId);
  if (!event) return give({ status: 'failed', lastError: 'the event is past its retention' });

  const headers = deliveryHeaders(await signingSecrets(message.workspaceId, endpoint, now), event.id, now, event.body);
  const sentAt = Date.now();
  const result = await postWebhook(endpoint.url, headers, event.body, settings);
  // The queue counts the backoff from the end of the attempt (the message is released then), which a
  // slow receiver puts up to the timeout after `now`: the shown next attempt is counted the same way.
  const finishedAt = now.getTime() + (Date.now() - sentAt);
  const attempts = delivery.attempts + 1;
  const answered = result.statusCode !== undefined;
  const succeeded = answered && (result.statusCode as number) >= 200 && (result.statusCode as number) < 300;
  const base = {
    attempts,
    lastStatusCode: result.statusCode,
    lastError: succeeded ? undefined : (result.error ?? `the receiver answered HTTP ${result.statusCode}`),
    lastResponseBody: excerpt(result.responseBody, settings.storedResponseBytes),
  };
  logger.info('webhook attempt', { deliveryId: delivery.id, eventId: delivery.eventId, endpointId: endpoint.id, attempts, statusCode: result.statusCode, error: base.lastError });
  if (succeeded) return give({ ...base, status: 'succeeded' });
  if (attempts >= MAX_ATTEMPTS) {
    // Recorded only by the copy of the message that made this attempt: a duplicate dead-letters nothing.
    const recorded = await recordAttempt(delivery, { ...base, status: 'failed' }, now);
    return recorded ? { done: true, deadLetter: true } : { done: true };
  }
  const retryAfterMs = retryDelayMs(attempts, settings.schedule);
  const recorded = await recordAttempt(delivery, { ...base, status: 'pending', nextAttemptAt: new Date(finishedAt + retryAfterMs).toISOString() }, now);
  // Another copy of the message recorded this attempt first: that copy owns the retry.
  return recorded ? { done: false, retryAfterMs } : { done: true };
}

function parseMessage(record: SQSRecord): DeliveryMessage | undefined {
  try {
    const parsed = JSON.parse(record.body) as Partial<DeliveryMessage>;
    if (typeof parsed.workspaceId === 'string' && typeof parsed.endpointId === 'string' && typeof parsed.deliveryId === 'string') return parsed as DeliveryMessage;
  } catch {
    // unreadable: dropped below
  }
  return undefined;
}

/**
 * The SQS consumer: each message is one attempt. A retry makes the message visible again after the
 * backoff delay (ChangeMessageVisibility) and reports it as a batch item failure so SQS keeps it; a
 * delivery that failed its 8th attempt sends its message to the dead-letter queue (its alarm fires)
 * and lets the original go; an attempt that crashes is reported too and comes back after the
 * queue's visibility timeout (after too many receives, SQS moves it to the dead-letter queue itself).
 */
export function createSender(settings: SenderSettings, retry: RetryControl) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures = await Promise.all(event.Records.map(async (record) => {
      const message = parseMessage(record);
      if (!message) {
        logger.error('unreadable webhook delivery message dropped', { messageId: record.messageId });
        return undefined;
      }
      try {
        const verdict = await attemptDelivery(message, settings);
        if (verdict.done) {
          if (verdict.deadLetter) {
            logger.warn('webhook delivery failed its whole schedule; dead-lettered', { deliveryId: message.deliveryId, endpointId: message.endpointId });
            await retry.deadLetter(record.body);
          }
          return undefined;
        }
        await retry.retryAfter(record.receiptHandle, verdict.retryAfterMs);
        return record.messageId;
      } catch (error) {
        logger.error('webhook attempt crashed', { deliveryId: message.deliveryId, error });
        return record.messageId;
      }
    }));
    return { batchItemFailures: failures.flatMap((id) => (id ? [{ itemIdentifier: id }] : [])) };
  };
}

