import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteItem } from '../../shared/db/conditional.js';
import { invoiceKeys } from '../../shared/invoices/invoice-model.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

const run = promisify(execFile);
let api: TestApi;
let ws: TestWorkspace;

async function admin(...args: string[]) {
  const { stdout } = await run('npx', ['tsx', 'bin/admin.ts', ...args], { env: process.env, timeout: 120_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as { scanned: number; rebuilt: number; written: number; alreadyComplete: boolean };
}

beforeAll(async () => {
  api = await startApi();
  ws = await api.newWorkspace('Backfill');
});
afterAll(async () => api.close());

describe('npm run admin -- backfill', () => {
  it('gives invoices written before a projection existed their projections, idempotently and resumably', async () => {
    // Prepare: an open invoice whose customer+status projection is missing, as if written by older code.
    const contact = await api.request('POST', '/v1/contacts', { key: ws.apiKey, body: { email: `old-${Date.now()}@example.com` } });
    const created = await api.request('POST', '/v1/invoices', {
      key: ws.apiKey, body: { customerId: contact.body.data.id, currency: 'USD', lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: 500 }] },
    });
    const invoiceId = created.body.data.id as string;
    await api.request('POST', `/v1/invoices/${invoiceId}/finalize`, { key: ws.apiKey });
    await deleteItem(invoiceKeys.byCustomerStatus(ws.workspaceId, contact.body.data.id, 'open', invoiceId));
    const listPath = `/v1/invoices?customerId=${contact.body.data.id}&status=open`;
    expect((await api.request('GET', listPath, { key: ws.apiKey })).body.data).toEqual([]);
    // Act
    const first = await admin('backfill', '--segments', '2', '--restart', '--json');
    const second = await admin('backfill', '--segments', '2', '--json');
    // Assess
    expect(first.alreadyComplete).toBe(false);
    expect(first.rebuilt).toBeGreaterThanOrEqual(1);
    expect(second.alreadyComplete).toBe(true);
    const listed = await api.request('GET', listPath, { key: ws.apiKey });
    expect(listed.body.data.map((invoice: { id: string }) => invoice.id)).toEqual([invoiceId]);
    // Running it again from scratch writes the same items and changes nothing.
    await admin('backfill', '--segments', '3', '--restart', '--json');
    expect((await api.request('GET', listPath, { key: ws.apiKey })).body.data.map((invoice: { id: string }) => invoice.id)).toEqual([invoiceId]);
    expect((await api.request('GET', `/v1/invoices?status=draft&customerId=${contact.body.data.id}`, { key: ws.apiKey })).body.data).toEqual([]);
  }, 180_000);
});
