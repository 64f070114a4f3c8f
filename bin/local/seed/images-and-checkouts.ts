import { solidPng } from '../../../shared/images/sample-images.js';
import type { Seeder } from './seed-client.js';

interface Listed<T> {
  data: T[];
}
interface DemoEvent {
  id: string;
  name: string;
  products: { id: string; name: string; required: boolean }[];
}

/**
 * Demo images and checkouts, through the API: two generated PNG posters, then checkouts that sell the
 * demo events' products (so `eventName`, `productsCount` and friends show real values).
 */
export const seedImagesAndCheckouts: Seeder = async (client) => {
  const png = (width: number, height: number, rgb: [number, number, number]) => new Uint8Array(solidPng(width, height, rgb));
  for (const [filename, bytes] of [['demo-poster.png', png(64, 96, [230, 57, 70])], ['demo-banner.png', png(160, 40, [29, 53, 87])]] as const) {
    await client.request('POST', `/v1/assets/images?filename=${encodeURIComponent(filename)}`, bytes, { 'Content-Type': 'image/png' });
  }

  const events = (await client.request<Listed<DemoEvent>>('GET', '/v1/events?limit=10')).data.filter((event) => event.products.length > 0);
  // A checkout collects buyer and attendee data with an order form.
  const forms = (await client.request<Listed<{ id: string; name: string; type: string }>>('GET', '/v1/forms?limit=100')).data
    .filter((form) => form.type === 'order');
  const [first, second] = events;
  if (!first) return;

  const [main, ...addOns] = first.products;
  await client.request('POST', '/v1/checkouts', {
    name: `${first.name} tickets`,
    description: 'Standalone checkout for the demo event, with an optional add-on.',
    status: 'open',
    visibility: 'public',
    eventId: first.id,
    ...(forms[0] ? { orderFormId: forms[0].id } : {}),
    paymentMethods: ['card', 'pay_later'],
    payButtonLabel: 'Buy tickets',
    maxTicketsPerOrder: 10,
    products: [{
      productId: main?.id,
      dependents: addOns.slice(0, 1).map((addOn) => ({
        productId: addOn.id, priceMode: 'paid', price: 500, minPerOrder: 0, maxPerOrder: 2,
        customFees: [{ name: 'Service fee', rate: 3 }],
      })),
    }],
  });
  await client.request('POST', '/v1/checkouts', {
    name: 'Group bundle',
    description: 'Invoice-only checkout for groups.',
    status: 'closed',
    visibility: 'private',
    paymentMethods: ['pay_by_invoice'],
    payByInvoice: { enabled: true, memo: 'Payable within 30 days', dueInDays: 30 },
    products: [first, second].flatMap((event) => (event ? [{ productId: event.products[0]?.id, quantity: 10 }] : [])),
  });
};
