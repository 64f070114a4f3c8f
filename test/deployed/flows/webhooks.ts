import type { Flow } from '../support/flows.js';

/**
 * Webhook endpoints: their secrets go through KMS deployed (the stand-in checks the key, the signature
 * and the encryption context) and through the local key locally; the URL guard runs in both.
 */
export const webhooksFlow: Flow = {
  name: 'webhook endpoints',
  async run({ call, check }) {
    // A name, not an address: it need not resolve (every send checks again), so CI needs no DNS.
    const url = 'https://hooks.example.com/boxoffice';
    const created = await call('create endpoint', 'POST', '/v1/webhook-endpoints', { body: { url, events: ['invoice.paid', 'refund.created'], description: 'Accounting' } });
    const id = created.body?.data?.id as string;
    const secret = created.body?.data?.secret as string | undefined;
    check(/^whsec_[A-Za-z0-9+/]{43}=$/.test(secret ?? ''), `create answered the secret ${secret}`);
    await call('endpoint with an http url', 'POST', '/v1/webhook-endpoints', { body: { url: 'http://hooks.example.com/boxoffice', events: ['invoice.paid'] } });
    await call('endpoint on a private address', 'POST', '/v1/webhook-endpoints', { body: { url: 'https://10.0.0.5/hooks', events: ['invoice.paid'] } });
    await call('endpoint with an unknown event type', 'POST', '/v1/webhook-endpoints', { body: { url, events: ['invoice.exploded'] } });
    await call('read-only key creates an endpoint', 'POST', '/v1/webhook-endpoints', { key: 'ro', body: { url, events: ['*'] } });
    const read = await call('get endpoint', 'GET', `/v1/webhook-endpoints/${id}`);
    check(read.body?.data !== undefined && !('secret' in read.body.data), 'GET answered the secret');
    await call('list endpoints', 'GET', '/v1/webhook-endpoints?limit=5');
    await call('disable endpoint', 'PATCH', `/v1/webhook-endpoints/${id}`, { body: { status: 'disabled', description: null } });
    // Rotating encrypts the new secret (KMS deployed); the replaced one keeps signing for a day.
    const rotated = await call('rotate secret', 'POST', `/v1/webhook-endpoints/${id}/rotate-secret`, { body: {} });
    check(typeof rotated.body?.data?.secret === 'string' && rotated.body.data.secret !== secret, 'rotating answered no new secret');
    await call('list deliveries', 'GET', `/v1/webhook-endpoints/${id}/deliveries`);
    await call('redeliver an unknown delivery', 'POST', `/v1/webhook-endpoints/${id}/deliveries/${'0'.repeat(24)}/redeliver`, { body: {} });
    await call('delete endpoint', 'DELETE', `/v1/webhook-endpoints/${id}`);
    await call('deleted endpoint', 'GET', `/v1/webhook-endpoints/${id}`);
  },
};
