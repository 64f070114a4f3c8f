import type { Page, PageRequest } from '../db/query.js';
import { InvalidStateError, NotFoundError, ValidationError } from '../errors.js';
import { newId } from '../ids.js';
import { mergePatch } from '../model/merge-patch.js';
import { checkEchoed, sameContent } from '../model/round-trip.js';
import { currentUrlPolicy, resolveAllowed, UrlRefusedError } from './url-guard.js';
import {
  PREVIOUS_SECRET_VALIDITY_SECONDS, WEBHOOK_ENDPOINT_ROUND_TRIP, publicDelivery, publicEndpoint,
  type CreateWebhookEndpointInput, type StoredEndpoint, type UpdateWebhookEndpointInput, type WebhookDelivery, type WebhookEndpoint,
} from './webhook-model.js';
import { newWebhookSecret, secretCipher } from './webhook-secrets.js';
import * as repository from './webhooks-repository.js';

/** The host of the URL must not resolve to a forbidden address (422 on `url`). Names that do not resolve yet are accepted: every send checks again. */
async function assertReachable(url: string): Promise<void> {
  try {
    await resolveAllowed(url, currentUrlPolicy());
  } catch (error) {
    if (error instanceof UrlRefusedError) throw new ValidationError({ path: 'url', message: error.message });
    throw error;
  }
}

/** Reads an endpoint of the workspace; absent or foreign is the same 404. */
export async function requireEndpoint(workspaceId: string, id: string, options: { consistent?: boolean } = {}): Promise<StoredEndpoint> {
  const endpoint = await repository.getEndpoint(workspaceId, id, options);
  if (!endpoint) throw new NotFoundError('Webhook endpoint');
  return endpoint;
}

/** POST /v1/webhook-endpoints: the endpoint with its new secret, which is shown only now. */
export async function createEndpoint(workspaceId: string, input: CreateWebhookEndpointInput, now = new Date()): Promise<WebhookEndpoint & { secret: string }> {
  await assertReachable(input.url);
  const id = newId(now);
  const secret = newWebhookSecret();
  const timestamp = now.toISOString();
  const endpoint: StoredEndpoint = {
    id,
    url: input.url,
    events: input.events,
    ...(input.description === undefined ? {} : { description: input.description }),
    status: input.status ?? 'enabled',
    createdAt: timestamp,
    updatedAt: timestamp,
    secretCiphertext: await (await secretCipher()).encrypt(secret, { workspaceId, endpointId: id }),
  };
  await repository.insertEndpoint(workspaceId, endpoint);
  return { ...publicEndpoint(endpoint), secret };
}

export async function listEndpoints(workspaceId: string, direction: 'asc' | 'desc', request: PageRequest): Promise<Page<WebhookEndpoint>> {
  const page = await repository.listEndpoints(workspaceId, direction, request);
  return { ...page, items: page.items.map(publicEndpoint) };
}

export async function getEndpoint(workspaceId: string, id: string): Promise<WebhookEndpoint> {
  return publicEndpoint(await requireEndpoint(workspaceId, id));
}

/** PATCH /v1/webhook-endpoints/{id}: the fields given; server-owned fields sent back from a GET are taken when unchanged (another id or createdAt is 422). */
export async function updateEndpoint(workspaceId: string, id: string, input: UpdateWebhookEndpointInput, now = new Date()): Promise<WebhookEndpoint> {
  const current = await requireEndpoint(workspaceId, id);
  const changes = checkEchoed(current, input, WEBHOOK_ENDPOINT_ROUND_TRIP);
  // Nothing changed: no write, so `updatedAt` (this resource's version) stays and other clients' copies stay current.
  if (sameContent(mergePatch(current, changes), current)) return publicEndpoint(current);
  if (changes.url !== undefined && changes.url !== current.url) await assertReachable(changes.url);
  const updated = await repository.updateEndpoint(workspaceId, id, { ...changes, updatedAt: now.toISOString() });
  return publicEndpoint(updated);
}

/** DELETE /v1/webhook-endpoints/{id}: the sender checks the endpoint before every attempt, so nothing more is sent. */
export async function deleteEndpoint(workspaceId: string, id: string): Promise<void> {
  await repository.deleteEndpoint(workspaceId, id);
}

/** POST /v1/webhook-endpoints/{id}/rotate-secret: a new secret; the replaced one still signs for 24 hours. */
export async function rotateSecret(workspaceId: string, id: string, now = new Date()): Promise<WebhookEndpoint & { secret: string }> {
  const current = await requireEndpoint(workspaceId, id, { consistent: true });
  const secret = newWebhookSecret();
  const ciphertext = await (await secretCipher()).encrypt(secret, { workspaceId, endpointId: id });
  const updated = await repository.rotateSecret(workspaceId, id, {
    expected: current.secretCiphertext,
    next: ciphertext,
    previousExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_VALIDITY_SECONDS * 1000).toISOString(),
    updatedAt: now.toISOString(),
  });
  return { ...publicEndpoint(updated), secret };
}

/** GET /v1/webhook-endpoints/{id}/deliveries: 1 GetItem (ownership) + 1 Query per page. */
export async function listDeliveries(workspaceId: string, endpointId: string, direction: 'asc' | 'desc', request: PageRequest): Promise<Page<WebhookDelivery>> {
  await requireEndpoint(workspaceId, endpointId);
  const page = await repository.listDeliveries(workspaceId, endpointId, direction, request);
  return { ...page, items: page.items.map(publicDelivery) };
}

/**
 * POST .../deliveries/{deliveryId}/redeliver: a new delivery of the same event (same `webhook-id`),
 * written to the table; the stream hands it to the sender like any other delivery.
 */
export async function redeliver(workspaceId: string, endpointId: string, deliveryId: string, now = new Date()): Promise<WebhookDelivery> {
  const endpoint = await requireEndpoint(workspaceId, endpointId);
  const original = await repository.getDelivery(workspaceId, endpointId, deliveryId);
  if (!original) throw new NotFoundError('Webhook delivery');
  if (endpoint.status !== 'enabled') throw new InvalidStateError('The endpoint is disabled; enable it before redelivering.');
  const event = await repository.getEvent(workspaceId, original.eventId);
  if (!event) throw new InvalidStateError('The event is past its retention and can no longer be sent.');
  const delivery = {
    id: newId(now),
    workspaceId,
    endpointId,
    eventId: original.eventId,
    type: original.type,
    status: 'pending' as const,
    attempts: 0,
    createdAt: now.toISOString(),
    redeliveryOf: original.id,
  };
  await repository.insertDelivery(delivery, now);
  return publicDelivery(delivery);
}
