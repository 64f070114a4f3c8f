import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { deliveryHeaders, signatureHeader } from '../../../shared/webhooks/signature.js';
import { newWebhookSecret } from '../../../shared/webhooks/webhook-secrets.js';

const body = JSON.stringify({ id: '6740f1a2c3d4e5f601234567', type: 'invoice.paid', timestamp: '2027-06-01T18:00:00.000Z', data: { object: { id: 'x' } } });

describe('Standard Webhooks signatures', () => {
  it('are accepted by the standardwebhooks package\'s Webhook.verify', () => {
    // Prepare
    const secret = newWebhookSecret();
    // Act
    const headers = deliveryHeaders([secret], '6740f1a2c3d4e5f601234567', new Date(), body);
    // Assess
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('equal the package\'s own signature for the same id, timestamp and body', () => {
    const secret = newWebhookSecret();
    const at = new Date('2027-06-01T18:00:00Z');
    expect(signatureHeader([secret], 'msg_1', Math.floor(at.getTime() / 1000), body)).toBe(new Webhook(secret).sign('msg_1', at, body));
  });

  it('carry one signature per secret during a rotation, each verifiable on its own', () => {
    // Prepare
    const [next, previous] = [newWebhookSecret(), newWebhookSecret()];
    // Act
    const headers = deliveryHeaders([next, previous], 'evt', new Date(), body);
    // Assess
    expect(String(headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => new Webhook(next).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(/No matching signature/);
  });

  it('fail verification when the body was changed on the way', () => {
    const secret = newWebhookSecret();
    const headers = deliveryHeaders([secret], 'evt', new Date(), body);
    expect(() => new Webhook(secret).verify(body.replace('invoice.paid', 'invoice.void'), headers)).toThrow(/No matching signature/);
  });
});
