import { ConflictError } from '../../../shared/errors.js';
import { createPartner } from '../../../shared/partners/partners-repository.js';
import type { Seeder } from './seed-client.js';

/** Referral code of the demo partner: `curl 'http://127.0.0.1:3000/partner/events?referral_code=DEMO-PARTNER'`. */
export const DEMO_PARTNER_CODE = 'DEMO-PARTNER';

const DAY = 86_400_000;
const at = (days: number, hour: number) => {
  const date = new Date(Date.now() + days * DAY);
  date.setUTCHours(hour, 0, 0, 0);
  return date.toISOString();
};

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const description = (intro: string) => [
  paragraph(intro),
  { type: 'bulletList', content: [
    { type: 'listItem', content: [paragraph('Doors open one hour before the start')] },
    { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Tickets and details', marks: [{ type: 'link', attrs: { href: '{{event.url}}' } }] }] }] },
  ] },
];

function demoEvent(name: string, startDays: number, extra: Record<string, unknown> = {}) {
  return {
    name,
    start: at(startDays, 18),
    end: at(startDays, 23),
    status: 'published',
    visibility: 'public',
    referral_code: DEMO_PARTNER_CODE,
    currency: 'USD',
    descriptionBlocks: description(`${name}: an evening you will remember.`),
    products: [
      { name: 'General admission', price: 4_500, required: true },
      { name: 'VIP', price: 12_000, required: true },
      { name: 'Parking', price: 1_500 },
    ],
    metaData: { city: 'Montreal' },
    ...extra,
  };
}

/**
 * Demo partner (platform-level, so created directly like the admin CLI does; tolerated when it
 * exists) and demo events through the API: four listed by the partner (one already past), plus a
 * draft and a private one that the partner listing must not show.
 */
export const seedEvents: Seeder = async (client) => {
  try {
    await createPartner({ referral_code: DEMO_PARTNER_CODE, firstName: 'Dana', lastName: 'Demo', companyName: 'Demo Partner Co', email: 'partner@example.com', username: 'demopartner', tags: ['music', 'local'] });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
  }
  const events = [
    demoEvent('Jazz on the Harbour', 7),
    demoEvent('Indie Night', 14, { metaData: { city: 'Toronto' } }),
    demoEvent('Food Truck Festival', 30, { type: 'multiple', currency: 'CAD', products: [{ name: 'Entry', price: 1_000, required: true }] }),
    demoEvent('Spring Gala (past)', -20),
    demoEvent('Autumn Workshop (draft)', 45, { status: 'draft' }),
    demoEvent('Team Offsite (private)', 10, { visibility: 'private', referral_code: undefined }),
  ];
  for (const event of events) await client.request('POST', '/v1/events', event);
};
