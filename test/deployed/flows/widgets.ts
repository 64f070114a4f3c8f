import type { Flow } from '../support/flows.js';

const DAY = 86_400_000;
const SITE = { Origin: 'https://partner-site.example' };

/**
 * The embeddable widgets as a partner's page uses them, cross-origin: the script, the requests each
 * custom element sends (listing pages, the public form, its preflight and submissions), and the errors
 * a browser on that page must be able to read, including those API Gateway answers by itself
 * (unknown path, wrong method, a body over its 10 MB limit).
 */
export const widgetsFlow: Flow = {
  name: 'widgets on a partner site',
  async run({ call, check, tenant }) {
    const script = await call('widget script', 'GET', '/widget/v1/boxoffice.js', { key: 'none', headers: SITE });
    check(script.text.includes('customElements.define'), 'the widget script defines no custom elements');

    const start = new Date(Date.now() + 20 * DAY).toISOString();
    const end = new Date(Date.now() + 20 * DAY + 7_200_000).toISOString();
    await call('create listed event', 'POST', '/v1/events', {
      body: { name: 'Harbour lights', start, end, status: 'published', visibility: 'public', referral_code: tenant.partnerCode, products: [{ name: 'Entry', price: 1_500, required: true }] },
    });
    // <boxoffice-events referral-code limit filter sort>: what events-element.ts requests, page by page.
    const listing = await call('events widget page', 'GET', `/partner/events?referral_code=${tenant.partnerCode}&limit=20&filter=upcoming&sort=start&page=0`, { key: 'none', headers: SITE });
    check(listing.body?.data?.length === 1, `the events widget lists ${listing.body?.data?.length} events instead of 1`);
    await call('events widget, unknown code', 'GET', '/partner/events?referral_code=NO-SUCH-PARTNER&page=0', { key: 'none', headers: SITE });
    await call('events widget, bad sort', 'GET', `/partner/events?referral_code=${tenant.partnerCode}&sort=price&page=0`, { key: 'none', headers: SITE });

    // <boxoffice-form form-id>: what form-element.ts requests.
    const form = await call('create widget form', 'POST', '/v1/forms', { body: { name: 'Newsletter', type: 'standalone', status: 'active' } });
    const formId = form.body?.data?.id as string;
    const email = await call('add email question', 'POST', `/v1/forms/${formId}/elements`, { body: { type: 'Email', prompt: 'Email', required: true, contactField: 'email' } });
    await call('form widget loads', 'GET', `/forms/${formId}`, { key: 'none', headers: SITE });
    await call('form widget preflight', 'OPTIONS', `/forms/${formId}/responses`, {
      key: 'none', headers: { ...SITE, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,idempotency-key' },
    });
    await call('form widget, missing answer', 'POST', `/forms/${formId}/responses`, { key: 'none', body: { answers: {} }, headers: { ...SITE, 'Idempotency-Key': 'widget-1' } });
    const answers = { [email.body?.data?.id as string]: 'reader@example.com' };
    await call('form widget submits', 'POST', `/forms/${formId}/responses`, { key: 'none', body: { answers }, headers: { ...SITE, 'Idempotency-Key': 'widget-2' } });
    await call('form widget resubmits', 'POST', `/forms/${formId}/responses`, { key: 'none', body: { answers }, headers: { ...SITE, 'Idempotency-Key': 'widget-2' } });
    await call('form widget, unknown form', 'GET', `/forms/${'0'.repeat(24)}`, { key: 'none', headers: SITE });

    // What the gateway answers by itself on the public routes must be readable by the page too.
    await call('unknown public path', 'GET', `/forms/${formId}/nothing-here`, { key: 'none', headers: SITE });
    await call('wrong method on the listing', 'DELETE', '/partner/events', { key: 'none', headers: SITE });
    await call('submission over 10 MB', 'POST', `/forms/${formId}/responses`, {
      key: 'none', raw: JSON.stringify({ answers: { padding: 'x'.repeat(10 * 1024 * 1024) } }), headers: { ...SITE, 'Content-Type': 'application/json' },
    });
  },
};
