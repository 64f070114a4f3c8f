import { requireEnv } from '../../shared/config.js';
import { traced } from '../../shared/observability/tracing.js';
import { DEPLOYED_SCHEDULE } from '../../shared/webhooks/retry-schedule.js';
import { createSender, senderSettings } from '../../shared/webhooks/sender.js';
import { sqsDeliveryQueue } from '../../shared/webhooks/sqs-delivery-queue.js';

/** The delivery queue -> this: signs, POSTs, records the attempt, schedules retries on the queue, dead-letters what failed them all. */
export const handler = traced(createSender(
  senderSettings(DEPLOYED_SCHEDULE),
  sqsDeliveryQueue(requireEnv('WEBHOOK_QUEUE_URL'), requireEnv('WEBHOOK_DEAD_LETTER_QUEUE_URL')),
));
