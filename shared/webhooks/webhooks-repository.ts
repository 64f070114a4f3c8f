import { getItem, putItem, updateItem } from '../db/conditional.js';
import { queryAll, queryPage, type Page, type PageRequest } from '../db/query.js';
import { entityNames, exists, notExists } from '../db/table-design.js';
import { transaction } from '../db/transaction.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import {
  MAX_ENDPOINTS_PER_WORKSPACE, WEBHOOK_ENDPOINT_COUNTER_ENTITY, fromDeliveryItem, fromEndpointItem, fromEventItem, toDeliveryItem, toEndpointItem,
  webhookKeys, type StoredDelivery, type StoredEndpoint, type WebhookEventRecord,
} from './webhook-model.js';

/** The endpoint was rotated by another request between our read and our write. */
export class SecretRotatedConcurrentlyError extends ConflictError {
  constructor() {
    super('The secret was rotated by another request at the same moment. Retry the request.');
  }
}

/**
 * Creates an endpoint and counts it, in one transaction: the count may not pass the cap, so the
 * dispatcher's Query of a workspace's endpoints stays bounded whatever the concurrency.
 */
export async function insertEndpoint(workspaceId: string, endpoint: StoredEndpoint): Promise<void> {
  await transaction()
    .put(toEndpointItem(workspaceId, endpoint), { ...notExists(), onFailed: () => new ConflictError('A webhook endpoint with this id already exists.') })
    .update({
      key: webhookKeys.endpointCounter(workspaceId),
      update: 'SET #entity = :entity ADD #count :one',
      names: { ...entityNames(), '#count': 'count' },
      values: { ':entity': WEBHOOK_ENDPOINT_COUNTER_ENTITY, ':one': 1 },
      condition: {
        expression: 'attribute_not_exists(#count) OR #count < :max',
        values: { ':max': MAX_ENDPOINTS_PER_WORKSPACE },
        onFailed: () => new ValidationError({ path: '', message: `A workspace can have at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints; delete one first.` }),
      },
    })
    .commit();
}

/** One endpoint; `consistent` where a write decides on it (rotation). */
export async function getEndpoint(workspaceId: string, id: string, options: { consistent?: boolean } = {}): Promise<StoredEndpoint | undefined> {
  const item = await getItem(webhookKeys.endpoint(workspaceId, id), options);
  return item ? fromEndpointItem(item) : undefined;
}

/** One page of the workspace's endpoints in creation order. */
export async function listEndpoints(workspaceId: string, direction: 'asc' | 'desc', request: PageRequest): Promise<Page<StoredEndpoint>> {
  const page = await queryPage({ index: 'byCreatedAt', partition: webhookKeys.endpointPartition(workspaceId), ascending: direction === 'asc' }, request, {
    owner: workspaceId, list: 'webhook-endpoints', shape: { direction },
  });
  return { ...page, items: page.items.map(fromEndpointItem) };
}

/** Every endpoint of the workspace: at most 16 (the cap), one Query. For the dispatcher. */
export async function allEndpoints(workspaceId: string): Promise<StoredEndpoint[]> {
  return (await queryAll({ partition: webhookKeys.endpointPartition(workspaceId) })).map(fromEndpointItem);
}

/** Sets the given fields (and removes those given as null); 404 when the endpoint is gone. Returns the result. */
export async function updateEndpoint(workspaceId: string, id: string, changes: Record<string, unknown>): Promise<StoredEndpoint> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  Object.entries(changes).forEach(([field, value], index) => {
    names[`#f${index}`] = field;
    if (value === null) {
      removes.push(`#f${index}`);
    } else {
      values[`:v${index}`] = value;
      sets.push(`#f${index} = :v${index}`);
    }
  });
  const update = [sets.length > 0 ? `SET ${sets.join(', ')}` : '', removes.length > 0 ? `REMOVE ${removes.join(', ')}` : ''].join(' ').trim();
  const item = await updateItem({
    key: webhookKeys.endpoint(workspaceId, id),
    update,
    names,
    values,
    condition: { ...exists(), onFailed: () => new NotFoundError('Webhook endpoint') },
  });
  return fromEndpointItem(item as Record<string, unknown>);
}

/** Replaces the secret, keeping the replaced one (until `previousExpiresAt`), if nobody rotated since `expected` was read. */
export async function rotateSecret(
  workspaceId: string,
  id: string,
  rotation: { expected: string; next: string; previousExpiresAt: string; updatedAt: string },
): Promise<StoredEndpoint> {
  const item = await updateItem({
    key: webhookKeys.endpoint(workspaceId, id),
    update: 'SET secretCiphertext = :next, previousSecretCiphertext = :expected, previousSecretExpiresAt = :expiresAt, updatedAt = :updatedAt',
    values: { ':next': rotation.next, ':expected': rotation.expected, ':expiresAt': rotation.previousExpiresAt, ':updatedAt': rotation.updatedAt },
    condition: { expression: 'secretCiphertext = :expected', onFailed: () => new SecretRotatedConcurrentlyError() },
  });
  return fromEndpointItem(item as Record<string, unknown>);
}

/** Deletes the endpoint and uncounts it in one transaction; 404 when it is already gone. */
export async function deleteEndpoint(workspaceId: string, id: string): Promise<void> {
  await transaction()
    .delete(webhookKeys.endpoint(workspaceId, id), { ...exists(), onFailed: () => new NotFoundError('Webhook endpoint') })
    .update({
      key: webhookKeys.endpointCounter(workspaceId),
      update: 'ADD #count :minusOne',
      names: { '#count': 'count' },
      values: { ':minusOne': -1 },
    })
    .commit();
}

/** The outbox event; undefined once its retention has passed. */
export async function getEvent(workspaceId: string, id: string): Promise<WebhookEventRecord | undefined> {
  const item = await getItem(webhookKeys.event(workspaceId, id));
  return item ? fromEventItem(item) : undefined;
}

/**
 * Writes a delivery unless one with its id exists. Returns false when it existed: a stream record
 * processed twice creates each delivery once.
 */
export async function insertDelivery(delivery: StoredDelivery, now: Date): Promise<boolean> {
  try {
    await putItem(toDeliveryItem(delivery, now), { ...notExists(), onFailed: () => new DeliveryExistsError() });
    return true;
  } catch (error) {
    if (error instanceof DeliveryExistsError) return false;
    throw error;
  }
}

class DeliveryExistsError extends Error {}

/** One delivery. Strong for the sender: it decides whether an attempt is still due. */
export async function getDelivery(workspaceId: string, endpointId: string, id: string, options: { consistent?: boolean } = {}): Promise<StoredDelivery | undefined> {
  const item = await getItem(webhookKeys.delivery(workspaceId, endpointId, id), options);
  return item ? fromDeliveryItem(item) : undefined;
}

/** One page of an endpoint's deliveries, newest first by default (creation order: `byCreatedAt`). */
export async function listDeliveries(workspaceId: string, endpointId: string, direction: 'asc' | 'desc', request: PageRequest): Promise<Page<StoredDelivery>> {
  const page = await queryPage({ index: 'byCreatedAt', partition: webhookKeys.deliveryPartition(workspaceId, endpointId), ascending: direction === 'asc' }, request, {
    owner: workspaceId, list: `webhook-deliveries:${endpointId}`, shape: { direction },
  });
  return { ...page, items: page.items.map(fromDeliveryItem) };
}

/** What one attempt changes on its delivery. */
export interface AttemptOutcome {
  status: StoredDelivery['status'];
  attempts: number;
  lastStatusCode?: number | undefined;
  lastError?: string | undefined;
  lastResponseBody?: string | undefined;
  nextAttemptAt?: string | undefined;
}

class AttemptAlreadyRecordedError extends Error {}

/**
 * Records an attempt, only if the delivery is still pending at the attempt count it was read with
 * (a duplicate message processed concurrently records nothing). Returns false in that case.
 */
export async function recordAttempt(delivery: StoredDelivery, outcome: AttemptOutcome, now: Date): Promise<boolean> {
  const fields: Record<string, unknown> = {
    status: outcome.status, attempts: outcome.attempts, updatedAt: now.toISOString(),
    lastStatusCode: outcome.lastStatusCode ?? null, lastError: outcome.lastError ?? null,
    lastResponseBody: outcome.lastResponseBody ?? null, nextAttemptAt: outcome.nextAttemptAt ?? null,
  };
  const names: Record<string, string> = { '#status': 'status', '#attempts': 'attempts' };
  const values: Record<string, unknown> = { ':pending': 'pending', ':read': delivery.attempts };
  const sets: string[] = [];
  const removes: string[] = [];
  Object.entries(fields).forEach(([field, value], index) => {
    const name = field === 'status' ? '#status' : field === 'attempts' ? '#attempts' : `#f${index}`;
    names[name] = field;
    if (value === null) removes.push(name);
    else {
      values[`:v${index}`] = value;
      sets.push(`${name} = :v${index}`);
    }
  });
  try {
    await updateItem({
      key: webhookKeys.delivery(delivery.workspaceId, delivery.endpointId, delivery.id),
      update: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
      names,
      values,
      condition: { expression: '#status = :pending AND #attempts = :read', onFailed: () => new AttemptAlreadyRecordedError() },
    });
    return true;
  } catch (error) {
    if (error instanceof AttemptAlreadyRecordedError) return false;
    throw error;
  }
}
