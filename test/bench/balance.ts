import { measure, timedRequest, type BenchEnvironment } from './harness.js';

async function call(env: BenchEnvironment, method: string, path: string, body?: unknown): Promise<{ data: { id: string } }> {
  const response = await fetch(`${env.server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${env.workspace.apiKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<{ data: { id: string } }>;
}

/** One paid invoice: create, finalize, record a full manual payment (a ledger entry each). */
async function paidInvoice(env: BenchEnvironment, customerId: string, index: number): Promise<void> {
  const invoice = await call(env, 'POST', '/v1/invoices', {
    customerId, currency: 'USD', lineItems: [{ description: `Ticket ${index}`, quantity: 1, unitAmount: 2_000 + index }],
  });
  await call(env, 'POST', `/v1/invoices/${invoice.data.id}/finalize`);
  await call(env, 'POST', `/v1/invoices/${invoice.data.id}/payments`, { amount: 2_000 + index, idempotencyKey: `bench-${index}` });
}

/**
 * The balance goal: reading it must not cost more as order history grows (aggregates, not history).
 * Same read after 5 and after 100 paid invoices.
 */
export async function balanceBench(env: BenchEnvironment): Promise<Record<string, string | number>[]> {
  const contact = await call(env, 'POST', '/v1/contacts', { email: `bench-${Date.now()}@example.com`, defaultPaymentMethod: 'pm_card_visa' });
  const rows: Record<string, string | number>[] = [];
  let paid = 0;
  for (const target of [5, 100]) {
    for (; paid < target; paid += 1) await paidInvoice(env, contact.data.id, paid);
    rows.push(await measure(`GET /v1/events/balance (${target} paid invoices)`, 50, () =>
      timedRequest(`${env.server.url}/v1/events/balance`, { headers: { Authorization: `Bearer ${env.workspace.apiKey}` } })));
  }
  return rows;
}
