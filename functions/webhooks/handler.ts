import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import { createWebhookEndpoint } from './create-webhook-endpoint.js';
import { deleteWebhookEndpoint } from './delete-webhook-endpoint.js';
import { getWebhookEndpoint } from './get-webhook-endpoint.js';
import { listWebhookDeliveries } from './list-webhook-deliveries.js';
import { listWebhookEndpoints } from './list-webhook-endpoints.js';
import { redeliverWebhook } from './redeliver-webhook.js';
import { rotateWebhookEndpointSecret } from './rotate-webhook-secret.js';
import { updateWebhookEndpoint } from './update-webhook-endpoint.js';

export const operations = [
  createWebhookEndpoint, listWebhookEndpoints, getWebhookEndpoint, updateWebhookEndpoint, deleteWebhookEndpoint,
  rotateWebhookEndpointSecret, listWebhookDeliveries, redeliverWebhook,
];
export const handler = createGroupHandler('webhooks', operations, { idempotency: runIdempotent });
