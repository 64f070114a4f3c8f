import type * as z from 'zod';
import {
  createWebhookEndpointBodySchema, updateWebhookEndpointBodySchema, webhookDeliverySchema, webhookEndpointSchema, webhookEndpointWithSecretSchema,
} from '../../webhooks/webhook-model.js';
import { defineRoute } from '../route.js';
import { cursorListQuery, cursorListResponse, dataResponse, idParams } from '../schemas.js';
import { lazy } from '../../model/lazy-schema.js';

const endpointParams = lazy(() => idParams('endpointId'));

export const webhookEndpointListQuerySchema = lazy(() => cursorListQuery(['createdAt'], 'createdAt', {}));
export const webhookDeliveryListQuerySchema = lazy(() => cursorListQuery(['createdAt'], 'createdAt', {}, { defaultDirection: 'desc' }));
export type WebhookEndpointListQuery = z.infer<typeof webhookEndpointListQuerySchema>;

const SIGNING = 'Deliveries follow the Standard Webhooks specification: `POST url` with body `{id, type, timestamp, data: {object}}` and the headers `webhook-id` (the event id), `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256>`; verify them with any Standard Webhooks library.';

export const webhooksRoutes = {
  createEndpoint: defineRoute({
    group: 'webhooks',
    operation: 'createWebhookEndpoint',
    method: 'POST',
    path: '/v1/webhook-endpoints',
    auth: 'key',
    tags: ['Webhooks'],
    summary: 'Create a webhook endpoint',
    description: `Answers the endpoint with its signing \`secret\`, shown only here and on rotation. \`url\` must be https and must not resolve to a private, loopback, link-local or metadata address (422 on \`url\`). At most 16 endpoints per workspace. ${SIGNING}`,
    body: createWebhookEndpointBodySchema,
    success: { status: 201, description: 'The endpoint, with its secret.', schema: lazy(() => dataResponse(webhookEndpointWithSecretSchema)) },
    errors: [401, 403, 422],
    responseHoldsSecret: true,
  }),
  listEndpoints: defineRoute({
    group: 'webhooks',
    operation: 'listWebhookEndpoints',
    method: 'GET',
    path: '/v1/webhook-endpoints',
    auth: 'key',
    tags: ['Webhooks'],
    summary: 'List webhook endpoints',
    description: 'Generic list, in creation order. Secrets are never returned.',
    query: webhookEndpointListQuerySchema,
    success: { status: 200, description: 'One page of endpoints.', schema: lazy(() => cursorListResponse(webhookEndpointSchema).meta({ id: 'WebhookEndpointList' })) },
    errors: [400, 401, 403],
  }),
  getEndpoint: defineRoute({
    group: 'webhooks',
    operation: 'getWebhookEndpoint',
    method: 'GET',
    path: '/v1/webhook-endpoints/{endpointId}',
    auth: 'key',
    tags: ['Webhooks'],
    summary: 'Get a webhook endpoint',
    params: endpointParams,
    success: { status: 200, description: 'The endpoint (without its secret).', schema: lazy(() => dataResponse(webhookEndpointSchema)) },
    errors: [401, 403, 404],
  }),
  updateEndpoint: defineRoute({
    group: 'webhooks',
    operation: 'updateWebhookEndpoint',
    method: 'PATCH',
    path: '/v1/webhook-endpoints/{endpointId}',
    auth: 'key',
    tags: ['Webhooks'],
    summary: 'Update a webhook endpoint',
    description: 'Any of `url`, `events`, `description` (`null` removes it) and `status` (`enabled` | `disabled`: a disabled endpoint gets no new deliveries and its pending retries stop).',
    params: endpointParams,
    body: updateWebhookEndpointBodySchema,
    success: { status: 200, description: 'The updated endpoint.', schema: lazy(() => dataResponse(webhookEndpointSchema)) },
    errors: [401, 403, 404, 409, 422],
  }),
  deleteEndpoint: defineRoute({
    group: 'webhooks',
    operation: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: '/v1/webhook-endpoints/{endpointId}',
    auth: 'key',
    tags: ['Webhooks'],
    summary: 'Delete a webhook endpoint',
    description: 'Nothing more is sent to it, including pending retries.',
    params: endpointParams,
    success: { status: 204, description: 'Deleted.' },
    errors: [401, 403, 404],
  }),
  rotateSecret: defineRoute({
    group: 'webhooks',
    operation: 'rotateWebhookEndpointSecret',
    method: 'POST',
    path: '/v1/webhook-endpoints/{endpointId}/rotate-secret',
    auth: 'key',
    tags: ['Webhooks'],
    summary: 'Rotate the signing secret',
    description: 'Answers the endpoint with its new `secret`. For 24 hours every delivery carries two signatures (`v1,<new> v1,<old>`), so receivers can switch without losing a delivery.',
    params: endpointParams,
    success: { status: 200, description: 'The endpoint, with its new secret.', schema: lazy(() => dataResponse(webhookEndpointWithSecretSchema)) },
    errors: [401, 403, 404, 409],
    responseHoldsSecret: true,
  }),
  listDeliveries: defineRoute({
    group: 'webhooks',
    operation: 'listWebhookDeliveries',
    method: 'GET',
    path: '/v1/webhook-endpoints/{endpointId}/deliveries',
    auth: 'key',
    tags: ['Webhooks'],
    summary: 'List deliveries of an endpoint',
    description: 'Generic list, newest first by default. Deliveries are kept 30 days.',
    params: endpointParams,
    query: webhookDeliveryListQuerySchema,
    success: { status: 200, description: 'One page of deliveries.', schema: lazy(() => cursorListResponse(webhookDeliverySchema).meta({ id: 'WebhookDeliveryList' })) },
    errors: [400, 401, 403, 404],
  }),
  redeliver: defineRoute({
    group: 'webhooks',
    operation: 'redeliverWebhook',
    method: 'POST',
    path: '/v1/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/redeliver',
    auth: 'key',
    tags: ['Webhooks'],
    summary: 'Send an event again',
    description: 'Queues a new delivery of the same event: same body, same `webhook-id`, a fresh timestamp and signature. 409 `invalid_state` when the endpoint is disabled or the event is past its 30-day retention.',
    params: lazy(() => idParams('endpointId', 'deliveryId')),
    success: { status: 202, description: 'The new delivery, `pending`.', schema: lazy(() => dataResponse(webhookDeliverySchema)) },
    errors: [401, 403, 404, 409],
  }),
};
