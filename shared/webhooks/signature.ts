import { createHmac } from 'node:crypto';
import { secretKey } from './webhook-secrets.js';

/**
 * Standard Webhooks signatures: `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>` per secret,
 * separated by spaces (during a rotation both the new and the previous secret sign).
 */
export function signatureHeader(secrets: readonly string[], messageId: string, timestampSeconds: number, body: string): string {
  const content = `${messageId}.${timestampSeconds}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(content, 'utf8').digest('base64')}`).join(' ');
}

/** The headers of one delivery attempt. */
export function deliveryHeaders(secrets: readonly string[], eventId: string, now: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Boxoffice-Webhooks/1.0',
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, eventId, timestamp, body),
  };
}
