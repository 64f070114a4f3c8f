import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeedClient } from '../../bin/local/seed/seed-client.js';
import { seedInvoices } from '../../bin/local/seed/invoices.js';
import { startApi, type TestApi } from './support/api.js';

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

describe('invoices demo seeder', () => {
  it('seeds invoices in every status, a refund and a payout through the API', async () => {
    // Prepare
    const ws = await api.newWorkspace('Seeded');
    // Act
    await seedInvoices(createSeedClient(api.url, ws.workspaceId, ws.apiKey));
    // Assess
    const list = await api.request('GET', '/v1/invoices?limit=100', { key: ws.apiKey });
    const statuses = new Set(list.body.data.map((invoice: { status: string }) => invoice.status));
    expect([...statuses].sort()).toEqual(['draft', 'open', 'paid', 'payment_failed', 'void']);
    const refunded = list.body.data.filter((invoice: { amountRefunded: number }) => invoice.amountRefunded > 0);
    expect(refunded).toHaveLength(1);
    const [balance] = (await api.request('GET', '/v1/events/balance', { key: ws.apiKey })).body.data;
    expect(balance.available_balance.balance).toBeGreaterThan(0);
    expect(balance.available_balance.orders.length + balance.pending_balance.orders.length).toBeGreaterThan(0);
  });
});
