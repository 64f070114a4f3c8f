import { createHash } from 'node:crypto';
import * as z from 'zod';
import { creationOrderKey, entityAttribute, itemKey, ttlAttribute, withoutKeys, type ItemKey } from '../db/table-design.js';
import { dateTimeSchema, idSchema } from '../model/primitives.js';
import { echoedFields, type RoundTrip } from '../model/round-trip.js';
import { currentUrlPolicy, urlProblem } from './url-guard.js';
import { lazy } from '../model/lazy-schema.js';

/**
 * The webhooks model: event types, endpoints, deliveries and outbox events; their schemas, keys and
 * item mappers. Routes build their request and response schemas from these; nothing here knows HTTP.
 */

/** Every event type a host can subscribe to (API.md "Webhooks"). */
export const WEBHOOK_EVENT_TYPES = [
  'invoice.finalized', 'invoice.paid', 'invoice.payment_failed', 'invoice.voided', 'refund.created', 'payout.created',
  'form_response.created', 'contact.created', 'event.published',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Endpoints per workspace: bounds what the dispatcher reads per event (one Query of at most this many). */
export const MAX_ENDPOINTS_PER_WORKSPACE = 16;
/** Longest accepted endpoint URL. */
export const MAX_URL_LENGTH = 1024;
/** How long events and deliveries are kept (TTL): deliveries can be listed and redelivered for this long. */
export const RETENTION_DAYS = 30;
/** After a rotation the previous secret still signs for this long. */
export const PREVIOUS_SECRET_VALIDITY_SECONDS = 24 * 60 * 60;

export const webhookEventTypeSchema = lazy(() => z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' }));

export const webhookUrlSchema = lazy(() => z
  .string()
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .superRefine((value, context) => {
    const problem = urlProblem(value, currentUrlPolicy());
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description: 'Where deliveries are POSTed: `https` (the local server also takes `http://127.0.0.1` and `http://localhost`). Hosts resolving to private, loopback, link-local or metadata addresses are refused, here and again at every send.',
    example: 'https://hooks.example.com/boxoffice',
  }));

const eventSelectionSchema = lazy(() => z
  .array(z.enum([...WEBHOOK_EVENT_TYPES, '*']))
  .min(1, 'must list at least one event type, or ["*"] for all')
  .max(WEBHOOK_EVENT_TYPES.length)
  .superRefine((events, context) => {
    if (new Set(events).size !== events.length) context.addIssue({ code: 'custom', message: 'must not list an event type twice' });
    if (events.includes('*') && events.length > 1) context.addIssue({ code: 'custom', message: '"*" already selects every event type; send it alone' });
  })
  .meta({ description: 'Event types to deliver, or `["*"]` for every type (including types added later).', example: ['invoice.paid', 'refund.created'] }));

const descriptionSchema = lazy(() => z.string().max(500).meta({ description: 'Free text for your own reference.' }));

export const webhookEndpointSchema = lazy(() => z
  .object({
    id: idSchema,
    url: z.string(),
    events: z.array(z.enum([...WEBHOOK_EVENT_TYPES, '*'])),
    description: z.string().optional(),
    status: z.enum(ENDPOINT_STATUSES).meta({ description: '`disabled` endpoints get no new deliveries.' }),
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  })
  .meta({ id: 'WebhookEndpoint' }));

export const webhookEndpointWithSecretSchema = lazy(() => webhookEndpointSchema
  .extend({
    secret: z.string().meta({
      description: 'Signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). Shown only when the endpoint is created and when the secret is rotated; store it now.',
      example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    }),
  })
  .meta({ id: 'WebhookEndpointWithSecret' }));

/** What an endpoint's GET returns that its writes do not set (API.md "Round trips and references"). */
export const WEBHOOK_ENDPOINT_ROUND_TRIP: RoundTrip = { resource: 'webhook endpoint', readOnly: { id: undefined, createdAt: undefined }, derived: ['updatedAt'] };

export const createWebhookEndpointBodySchema = lazy(() => z
  .strictObject({
    ...echoedFields(webhookEndpointSchema.shape, WEBHOOK_ENDPOINT_ROUND_TRIP, 'create'),
    url: webhookUrlSchema,
    events: eventSelectionSchema,
    description: descriptionSchema.optional(),
    status: z.enum(ENDPOINT_STATUSES).optional().meta({ description: 'Default `enabled`.' }),
  })
  .meta({ id: 'CreateWebhookEndpoint' }));

export const updateWebhookEndpointBodySchema = lazy(() => z
  .strictObject({
    ...echoedFields(webhookEndpointSchema.shape, WEBHOOK_ENDPOINT_ROUND_TRIP, 'update'),
    url: webhookUrlSchema.optional(),
    events: eventSelectionSchema.optional(),
    description: descriptionSchema.nullable().optional().meta({ description: '`null` removes it.' }),
    status: z.enum(ENDPOINT_STATUSES).optional(),
  })
  .meta({ id: 'UpdateWebhookEndpoint' }));

export const webhookDeliverySchema = lazy(() => z
  .object({
    id: idSchema,
    eventId: idSchema.meta({ description: 'The event id, sent as `webhook-id` on every attempt and redelivery.' }),
    type: webhookEventTypeSchema,
    status: z.enum(DELIVERY_STATUSES).meta({ description: '`pending` while attempts remain, then `succeeded` (a 2xx within 10 s) or `failed` (after 8 attempts, or once the endpoint is disabled).' }),
    attempts: z.number().int().meta({ description: 'Attempts made so far (at most 8).' }),
    lastStatusCode: z.number().int().optional().meta({ description: 'HTTP status of the last attempt, when the receiver answered.' }),
    lastError: z.string().optional().meta({ description: 'Why the last attempt failed (status, timeout, refused address, ...).' }),
    nextAttemptAt: dateTimeSchema.optional().meta({ description: 'When the next attempt is due, while `pending` after a failure.' }),
    createdAt: dateTimeSchema,
  })
  .meta({ id: 'WebhookDelivery' }));

export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export type CreateWebhookEndpointInput = z.infer<typeof createWebhookEndpointBodySchema>;
export type UpdateWebhookEndpointInput = z.infer<typeof updateWebhookEndpointBodySchema>;

export const WEBHOOK_ENDPOINT_ENTITY = 'WebhookEndpoint';
export const WEBHOOK_ENDPOINT_COUNTER_ENTITY = 'WebhookEndpointCounter';
export const WEBHOOK_EVENT_ENTITY = 'WebhookEvent';
export const WEBHOOK_DELIVERY_ENTITY = 'WebhookDelivery';

/**
 * Key builders: the only place webhook keys are spelled.
 * - endpoint: `WS#<ws>#WEBHOOK_ENDPOINT` / `<endpointId>`: at most 16 per workspace, so the
 *   dispatcher reads a workspace's endpoints with one Query.
 * - endpoint counter: `WS#<ws>#COUNTER` / `WEBHOOK_ENDPOINTS`: `count`, moved in the create and delete
 *   transactions (the cap holds under concurrency).
 * - outbox event: `WS#<ws>#WEBHOOK_EVENT` / `<eventId>`: written in the transaction of the change it
 *   reports; its INSERT on the table's stream starts the delivery.
 * - delivery: `WS#<ws>#WEBHOOK_DELIVERY#<endpointId>` / `<deliveryId>`: one endpoint's deliveries in
 *   creation order through `byCreatedAt` (GSI3: the same partition, `<createdAt>#<id>`), so the
 *   newest-first list is one Query. Endpoints are listed the same way.
 */
export const webhookKeys = {
  endpointPartition: (workspaceId: string) => `WS#${workspaceId}#WEBHOOK_ENDPOINT`,
  endpoint: (workspaceId: string, id: string): ItemKey => itemKey(webhookKeys.endpointPartition(workspaceId), id),
  endpointCounter: (workspaceId: string): ItemKey => itemKey(`WS#${workspaceId}#COUNTER`, 'WEBHOOK_ENDPOINTS'),
  eventPartition: (workspaceId: string) => `WS#${workspaceId}#WEBHOOK_EVENT`,
  event: (workspaceId: string, id: string): ItemKey => itemKey(webhookKeys.eventPartition(workspaceId), id),
  deliveryPartition: (workspaceId: string, endpointId: string) => `WS#${workspaceId}#WEBHOOK_DELIVERY#${endpointId}`,
  delivery: (workspaceId: string, endpointId: string, id: string): ItemKey => itemKey(webhookKeys.deliveryPartition(workspaceId, endpointId), id),
};

/** The stored endpoint: the public fields plus its encrypted signing secrets. */
export interface StoredEndpoint extends WebhookEndpoint {
  /** Ciphertext of the current secret (never the secret itself). */
  secretCiphertext: string;
  /** Ciphertext of the secret replaced by the last rotation, and until when it still signs. */
  previousSecretCiphertext?: string;
  previousSecretExpiresAt?: string;
}

const SECRET_ATTRIBUTES = ['secretCiphertext', 'previousSecretCiphertext', 'previousSecretExpiresAt'];

export function toEndpointItem(workspaceId: string, endpoint: StoredEndpoint): Record<string, unknown> {
  const key = webhookKeys.endpoint(workspaceId, endpoint.id);
  return { ...key, ...creationOrderKey(key, endpoint.createdAt, endpoint.id), ...entityAttribute(WEBHOOK_ENDPOINT_ENTITY), ...endpoint };
}

export function fromEndpointItem(item: Record<string, unknown>): StoredEndpoint {
  return withoutKeys(item) as unknown as StoredEndpoint;
}

/** The public shape: never a secret or its ciphertext. */
export function publicEndpoint(endpoint: StoredEndpoint): WebhookEndpoint {
  const rest: Record<string, unknown> = { ...endpoint };
  for (const attribute of SECRET_ATTRIBUTES) delete rest[attribute];
  return rest as WebhookEndpoint;
}

/** True when the endpoint wants events of this type. */
export function subscribes(endpoint: Pick<WebhookEndpoint, 'events' | 'status'>, type: string): boolean {
  return endpoint.status === 'enabled' && (endpoint.events.includes('*') || (endpoint.events as string[]).includes(type));
}

/** A delivery as stored: the public fields plus what the sender needs to find its event. */
export interface StoredDelivery extends WebhookDelivery {
  workspaceId: string;
  endpointId: string;
  /** The delivery this one repeats (redeliver). */
  redeliveryOf?: string;
  /** When the last attempt was recorded (internal: the contract's delivery has no such field). */
  updatedAt?: string;
  /**
   * The start of the last response body (64 KiB read, 4 KiB kept), for operators reading the table;
   * not answered: the contract's delivery (API.md) has no such field.
   */
  lastResponseBody?: string;
}

export function toDeliveryItem(delivery: StoredDelivery, now: Date): Record<string, unknown> {
  const key = webhookKeys.delivery(delivery.workspaceId, delivery.endpointId, delivery.id);
  return {
    ...key,
    ...creationOrderKey(key, delivery.createdAt, delivery.id),
    ...entityAttribute(WEBHOOK_DELIVERY_ENTITY),
    ...ttlAttribute(retentionEnd(now)),
    ...delivery,
  };
}

export function fromDeliveryItem(item: Record<string, unknown>): StoredDelivery {
  return withoutKeys(item) as unknown as StoredDelivery;
}

export function publicDelivery(delivery: StoredDelivery): WebhookDelivery {
  const { workspaceId: _workspace, endpointId: _endpoint, redeliveryOf: _of, updatedAt: _updated, lastResponseBody: _body, ...rest } = delivery;
  return rest;
}

/**
 * The delivery of an event to an endpoint made by the dispatcher. Its id is derived from both (the
 * event's creation second, then 16 hex of a hash), so a stream record processed twice finds the same
 * delivery instead of creating a second one.
 */
export function dispatchedDeliveryId(eventId: string, endpointId: string): string {
  return eventId.slice(0, 8) + createHash('sha256').update(`${endpointId}:${eventId}`).digest('hex').slice(0, 16);
}

/** Epoch seconds when an item written now expires. */
export function retentionEnd(now: Date): number {
  return Math.floor(now.getTime() / 1000) + RETENTION_DAYS * 24 * 60 * 60;
}

/** What an SQS message (or the local queue's stand-in) carries: the delivery to attempt. */
export interface DeliveryMessage {
  workspaceId: string;
  endpointId: string;
  deliveryId: string;
}

/** An outbox event: what happened, and the exact body every delivery of it sends. */
export interface WebhookEventRecord {
  id: string;
  type: WebhookEventType;
  workspaceId: string;
  /** When the change happened (UTC, `Z`). */
  timestamp: string;
  /** The JSON body `{id, type, timestamp, data: {object}}`, serialised once so every attempt signs the same bytes. */
  body: string;
}

/** Bodies above this are stored gzip-compressed, so an event never pushes its transaction past the 400 KB item limit. */
const COMPRESS_ABOVE_BYTES = 32 * 1024;

/** The body of an event as Standard Webhooks receivers get it. */
export function eventBody(id: string, type: WebhookEventType, timestamp: string, object: unknown): string {
  return JSON.stringify({ id, type, timestamp, data: { object } });
}

/**
 * Large event bodies are stored gzipped. `node:zlib` is looked up when one is, not imported: every
 * function that records webhook events bundles this model, and few of their requests compress
 * (issue 16, P1: an import loads zlib at every cold start).
 */
export function toEventItem(event: WebhookEventRecord, now: Date): Record<string, unknown> {
  const { body, ...rest } = event;
  const stored = Buffer.byteLength(body) > COMPRESS_ABOVE_BYTES ? { bodyGzip: process.getBuiltinModule('node:zlib').gzipSync(body) } : { body };
  return { ...webhookKeys.event(event.workspaceId, event.id), ...entityAttribute(WEBHOOK_EVENT_ENTITY), ...ttlAttribute(retentionEnd(now)), ...rest, ...stored };
}

export function fromEventItem(item: Record<string, unknown>): WebhookEventRecord {
  const { bodyGzip, ...rest } = withoutKeys(item) as Record<string, unknown> & { bodyGzip?: Uint8Array };
  const body = bodyGzip ? process.getBuiltinModule('node:zlib').gunzipSync(bodyGzip).toString('utf8') : (rest.body as string);
  return { ...(rest as unknown as WebhookEventRecord), body };
}
