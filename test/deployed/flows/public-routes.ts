import type { Flow } from '../support/flows.js';

const DAY = 86_400_000;

/** The public, cross-origin routes: the partner listing and embedded forms (read, submit, host reads). */
export const publicRoutesFlow: Flow = {
  name: 'partner listing and public forms',
  async run({ call, check, tenant }) {
    const start = new Date(Date.now() + 10 * DAY).toISOString();
    const end = new Date(Date.now() + 10 * DAY + 7_200_000).toISOString();
    await call('create listed event', 'POST', '/v1/events', {
      body: { name: 'Open air', start, end, status: 'published', visibility: 'public', referral_code: tenant.partnerCode, products: [] },
    });
    const listing = await call('partner listing', 'GET', `/partner/events?referral_code=${tenant.partnerCode}&filter=upcoming`, { key: 'none', headers: { Origin: 'https://widget.example' } });
    check(listing.body?.data?.length === 1, `the partner listing shows ${listing.body?.data?.length} events instead of 1`);
    await call('partner listing without a code', 'GET', '/partner/events', { key: 'none' });
    await call('partner listing with a bad page', 'GET', `/partner/events?referral_code=${tenant.partnerCode}&page=-1`, { key: 'none' });
    await call('partner listing with another method', 'POST', `/partner/events?referral_code=${tenant.partnerCode}`, { key: 'none', body: {} });

    const form = await call('create active form', 'POST', '/v1/forms', { body: { name: 'Signup', type: 'standalone', status: 'active' } });
    const formId = form.body?.data?.id as string;
    const email = await call('add email question', 'POST', `/v1/forms/${formId}/elements`, { body: { type: 'Email', prompt: 'Email', required: true, contactField: 'email' } });
    const topics = await call('add text question', 'POST', `/v1/forms/${formId}/elements`, { body: { type: 'Text', prompt: 'Topics?' } });
    await call('public form', 'GET', `/forms/${formId}`, { key: 'none', headers: { Origin: 'https://site.example' } });
    await call('submit preflight', 'OPTIONS', `/forms/${formId}/responses`, {
      key: 'none', headers: { Origin: 'https://site.example', 'Access-Control-Request-Method': 'POST' },
    });
    const answers = { [email.body?.data?.id as string]: 'ada@example.com', [topics.body?.data?.id as string]: 'Jazz' };
    const submitted = await call('submit response', 'POST', `/forms/${formId}/responses`, { key: 'none', body: { answers }, headers: { 'Idempotency-Key': 'tier-1' } });
    const replayed = await call('replayed submission', 'POST', `/forms/${formId}/responses`, { key: 'none', body: { answers }, headers: { 'Idempotency-Key': 'tier-1' } });
    check(replayed.body?.data?.id === submitted.body?.data?.id, 'the replayed submission is not the first one');
    // Powertools Idempotency reads the record key and the payload fingerprint with the bundles' JMESPath stand-in.
    const reused = await call('same key, other answers', 'POST', `/forms/${formId}/responses`, {
      key: 'none', body: { answers: { ...answers, [topics.body?.data?.id as string]: 'Blues' } }, headers: { 'Idempotency-Key': 'tier-1' },
    });
    check(reused.body?.error?.code === 'idempotency_key_reused', `a reused Idempotency-Key answered ${reused.status}`);
    await call('invalid submission', 'POST', `/forms/${formId}/responses`, { key: 'none', body: { answers: { nope: 1 } } });
    await call('host lists responses', 'GET', `/v1/forms/${formId}/responses`);
    await call('host reads a response', 'GET', `/v1/forms/${formId}/responses/${submitted.body?.data?.id as string}`);
  },
};
