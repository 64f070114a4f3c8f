import { requireEnv } from '../../shared/config.js';
import { traced } from '../../shared/observability/tracing.js';
import { createDispatcher } from '../../shared/webhooks/dispatcher.js';
import { sqsDeliveryQueue } from '../../shared/webhooks/sqs-delivery-queue.js';

/** DynamoDB Streams -> this (filtered to outbox events and new deliveries) -> the delivery queue. */
export const handler = traced(createDispatcher(sqsDeliveryQueue(requireEnv('WEBHOOK_QUEUE_URL'))));
