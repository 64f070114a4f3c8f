import type { SeedClient, Seeder } from './seed-client.js';

interface ContactRef { id: string; email: string; defaultPaymentMethod?: string }
interface EventRef { id: string; name: string; products?: { id?: string; name: string; price: number }[] }
interface InvoiceRef { id: string; amountDue: number; payments: { id: string; status: string }[] }

const DAY = 86_400_000;

/** Contacts seeded earlier by card behaviour, created here when the contacts seeder did not run. */
async function customers(client: SeedClient): Promise<{ visa: string; declined: string; noCard: string }> {
  const { data } = await client.request<{ data: ContactRef[] }>('GET', '/v1/contacts?limit=100');
  const find = async (card: string | undefined, email: string) => {
    const found = data.find((contact) => contact.defaultPaymentMethod === card);
    if (found) return found.id;
    const created = await client.request<{ data: ContactRef }>('POST', '/v1/contacts', { email, ...(card ? { defaultPaymentMethod: card } : {}) });
    return created.data.id;
  };
  return {
    visa: await find('pm_card_visa', 'visa.buyer@example.com'),
    declined: await find('pm_card_chargeDeclined', 'declined.buyer@example.com'),
    noCard: await find(undefined, 'cash.buyer@example.com'),
  };
}

async function firstEvent(client: SeedClient): Promise<EventRef | undefined> {
  try {
    const { data } = await client.request<{ data: EventRef[] }>('GET', '/v1/events?limit=1');
    return data[0];
  } catch {
    return undefined;
  }
}

/**
 * Invoices in every status (draft, open, paid by card, payment_failed, void, paid by instalments),
 * a partial refund and a payout of settled money, all through the API.
 */
export const seedInvoices: Seeder = async (client) => {
  const people = await customers(client);
  const event = await firstEvent(client);
  const eventFields = event ? { eventId: event.id, eventName: event.name, eventTimezone: 'America/Toronto', productType: 'event-ticket' } : {};
  const ticket = (quantity: number, unitAmount: number) => ({
    description: event ? `${event.name}: general admission` : 'General admission', quantity, unitAmount, taxAmount: Math.round(quantity * unitAmount * 0.15), ...eventFields,
  });
  const create = async (customerId: string, lines: unknown[], extra: Record<string, unknown> = {}) =>
    (await client.request<{ data: InvoiceRef }>('POST', '/v1/invoices', { customerId, currency: 'USD', lineItems: lines, ...extra })).data;
  const post = async (path: string, body?: unknown) => (await client.request<{ data: InvoiceRef }>('POST', path, body)).data;

  await create(people.noCard, [ticket(2, 4_500)], { notes: 'Draft: still being prepared.' });
  const open = await create(people.noCard, [ticket(1, 12_000)], { dueAt: new Date(Date.now() + 14 * DAY).toISOString() });
  await post(`/v1/invoices/${open.id}/finalize`);
  const card = await create(people.visa, [ticket(4, 4_500)], { autoCharge: true });
  await post(`/v1/invoices/${card.id}/finalize`);
  const failed = await create(people.declined, [ticket(1, 4_500)], { autoCharge: true });
  await post(`/v1/invoices/${failed.id}/finalize`);
  const cancelled = await create(people.noCard, [ticket(1, 1_500)]);
  await post(`/v1/invoices/${cancelled.id}/void`);

  // Paid in two instalments a few days ago: past the 2-day settlement delay, so it can be paid out.
  const instalments = await create(people.noCard, [ticket(2, 12_000)]);
  const issued = await post(`/v1/invoices/${instalments.id}/finalize`);
  const paidAt = new Date(Date.now() - 5 * DAY).toISOString();
  const first = (await client.request<{ data: { id: string } }>('POST', `/v1/invoices/${instalments.id}/payments`, {
    amount: 10_000, idempotencyKey: 'seed-instalment-1', note: 'Bank transfer', paidAt,
  })).data;
  await client.request('POST', `/v1/invoices/${instalments.id}/payments`, {
    amount: issued.amountDue - 10_000, idempotencyKey: 'seed-instalment-2', note: 'Cheque', paidAt,
  });
  await client.request('POST', `/v1/invoices/${instalments.id}/payments/${first.id}/refunds`, {
    amount: 2_500, reason: 'requested_by_customer', note: 'One guest cancelled', idempotencyKey: 'seed-refund-1',
  });
  await client.request('POST', '/v1/payouts', { currency: 'USD', amount: 5_000, ...(event ? { eventId: event.id } : {}) });
};
