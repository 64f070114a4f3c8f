import { RECONCILER_IDEMPOTENCY_TABLE, RECONCILER_TABLE } from './reconciler/reconciler-tables.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureTables } from '../../bin/local/bootstrap.js';
import { dynamoClient } from '../../shared/db/client.js';
import { REFUND_COMPLETION_GRACE_MS } from '../../shared/invoices/invoice-payments-service.js';
import { getPaymentRecord, getRefundReservation, listRefundsDue } from '../../shared/invoices/invoices-repository.js';
import { reconcileDueRefunds } from '../../shared/invoices/refund-reconciler.js';
import { listLedgerEntries } from '../../shared/ledger/ledger-repository.js';
import { RefundDeclinedError, type PaymentProcessor } from '../../shared/payments/payment-processor.js';
import { usePaymentProcessor } from '../../shared/payments/processor-registry.js';
import { sandboxProcessor } from '../../shared/payments/sandbox-processor.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { FaultInjector } from './support/fault-injection.js';

const injector = new FaultInjector();
let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  await ensureTables(process.env.DYNAMODB_ENDPOINT, RECONCILER_TABLE, RECONCILER_IDEMPOTENCY_TABLE);
  injector.install(dynamoClient);
  api = await startApi();
  workspace = await api.newWorkspace('Refund reconciler');
});
afterEach(() => usePaymentProcessor(undefined));
afterAll(async () => api.close());

/** A card-paid invoice of 10,000: its id and its payment's id. */
async function paidInvoice(): Promise<{ invoiceId: string; paymentId: string }> {
  const contact = await api.request('POST', '/v1/contacts', { key: workspace.apiKey, body: { email: `r-${Math.random().toString(16).slice(2)}@example.com`, defaultPaymentMethod: 'pm_card_visa' } });
  const created = await api.request('POST', '/v1/invoices', {
    key: workspace.apiKey,
    body: { customerId: contact.body.data.id, currency: 'USD', autoCharge: true, lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: 10_000 }] },
  });
  const finalized = await api.request('POST', `/v1/invoices/${created.body.data.id}/finalize`, { key: workspace.apiKey });
  expect(finalized.body.data.status).toBe('paid');
  return { invoiceId: created.body.data.id, paymentId: finalized.body.data.payments[0].id };
}

/** A refund whose request reserves the amount and then cannot complete (DynamoDB down from then on). */
async function strandedRefund(invoiceId: string, paymentId: string, idempotencyKey: string) {
  injector.record({ call: 2, kind: 'server-error', persistent: true, command: 'TransactWriteItemsCommand' });
  const response = await api.request('POST', `/v1/invoices/${invoiceId}/payments/${paymentId}/refunds`, { key: workspace.apiKey, body: { amount: 3_000, idempotencyKey } });
  injector.stop();
  expect(response.status).toBe(503);
  expect(await getRefundReservation(workspace.workspaceId, paymentId, idempotencyKey)).toMatchObject({ state: 'reserved', amount: 3_000 });
  expect((await getPaymentRecord(workspace.workspaceId, paymentId))?.refundable).toBe(7_000);
}

const later = () => new Date(Date.now() + REFUND_COMPLETION_GRACE_MS + 1_000);
const refundsOf = async (invoiceId: string) => (await api.request('GET', `/v1/invoices/${invoiceId}`, { key: workspace.apiKey })).body.data.payments[0].refunds as { id: string; amount: number }[];

describe('refund reconciler', () => {
  it('leaves a reserved refund to its request until completeBy', async () => {
    // Prepare
    const { invoiceId, paymentId } = await paidInvoice();
    await strandedRefund(invoiceId, paymentId, 'not-yet');
    // Act
    await reconcileDueRefunds(new Date());
    // Assess
    expect(await getRefundReservation(workspace.workspaceId, paymentId, 'not-yet')).toMatchObject({ state: 'reserved' });
    expect(await refundsOf(invoiceId)).toEqual([]);
  });

  it('completes a refund whose request never did: refund on the invoice, ledger entry, nothing left due', async () => {
    // Prepare
    const { invoiceId, paymentId } = await paidInvoice();
    await strandedRefund(invoiceId, paymentId, 'stranded');
    // Act
    const report = await reconcileDueRefunds(later());
    // Assess
    expect(report.outcomes.completed).toBeGreaterThanOrEqual(1);
    expect(await getRefundReservation(workspace.workspaceId, paymentId, 'stranded')).toMatchObject({ state: 'completed' });
    const refunds = await refundsOf(invoiceId);
    expect(refunds).toMatchObject([{ amount: 3_000 }]);
    const entries = await listLedgerEntries(workspace.workspaceId, 'USD');
    expect(entries.filter((entry) => entry.type === 'refund' && entry.paymentId === paymentId)).toHaveLength(1);
    expect((await listRefundsDue(later(), 100)).filter((due) => due.paymentId === paymentId)).toEqual([]);
    // ... and the client's retry gets the same refund, not a second one
    const retry = await api.request('POST', `/v1/invoices/${invoiceId}/payments/${paymentId}/refunds`, { key: workspace.apiKey, body: { amount: 3_000, idempotencyKey: 'stranded' } });
    expect(retry.status).toBe(201);
    expect(retry.body.data.id).toBe(refunds[0]?.id);
    expect(await refundsOf(invoiceId)).toHaveLength(1);
  });

  it('refuses a retry of a reserved refund with another amount (409 idempotency_key_reused) and leaves the reservation as it was', async () => {
    // Prepare
    const { invoiceId, paymentId } = await paidInvoice();
    await strandedRefund(invoiceId, paymentId, 'reserved-other');
    // Act
    const retry = await api.request('POST', `/v1/invoices/${invoiceId}/payments/${paymentId}/refunds`, { key: workspace.apiKey, body: { amount: 5_000, idempotencyKey: 'reserved-other' } });
    // Assess
    expect(retry.status).toBe(409);
    expect(retry.body.error.code).toBe('idempotency_key_reused');
    expect(await getRefundReservation(workspace.workspaceId, paymentId, 'reserved-other')).toMatchObject({ state: 'reserved', amount: 3_000 });
    expect((await getPaymentRecord(workspace.workspaceId, paymentId))?.refundable).toBe(7_000);
    expect(await refundsOf(invoiceId)).toEqual([]);
  });

  it('resumes a reserved refund for a retry with the same amount but another reason and note, keeping what was reserved', async () => {
    // Prepare
    const { invoiceId, paymentId } = await paidInvoice();
    await strandedRefund(invoiceId, paymentId, 'reserved-reason');
    // Act
    const retry = await api.request('POST', `/v1/invoices/${invoiceId}/payments/${paymentId}/refunds`, {
      key: workspace.apiKey, body: { amount: 3_000, reason: 'fraudulent', note: 'retry', idempotencyKey: 'reserved-reason' },
    });
    // Assess
    expect(retry.status).toBe(201);
    expect(retry.body.data).toMatchObject({ amount: 3_000, idempotencyKey: 'reserved-reason' });
    expect(retry.body.data).not.toHaveProperty('reason');
    expect(retry.body.data).not.toHaveProperty('note');
    expect(await refundsOf(invoiceId)).toEqual([retry.body.data]);
    expect((await getPaymentRecord(workspace.workspaceId, paymentId))?.refundable).toBe(7_000);
  });

  it('releases the reserved amount when the processor declines the refund for good', async () => {
    // Prepare
    const { invoiceId, paymentId } = await paidInvoice();
    await strandedRefund(invoiceId, paymentId, 'declined');
    const declining: PaymentProcessor = { ...sandboxProcessor, refund: async () => { throw new RefundDeclinedError('charge_disputed'); } };
    usePaymentProcessor(declining);
    // Act
    const report = await reconcileDueRefunds(later());
    // Assess: refundable again, the key free, no refund and no ledger entry
    expect(report.outcomes.released).toBeGreaterThanOrEqual(1);
    expect((await getPaymentRecord(workspace.workspaceId, paymentId))?.refundable).toBe(10_000);
    expect(await getRefundReservation(workspace.workspaceId, paymentId, 'declined')).toBeUndefined();
    expect(await refundsOf(invoiceId)).toEqual([]);
    expect((await listLedgerEntries(workspace.workspaceId, 'USD')).filter((entry) => entry.type === 'refund' && entry.paymentId === paymentId)).toEqual([]);
  });

  it('keeps a refund due when it cannot finish it now, and finishes it on a later run', async () => {
    // Prepare
    const { invoiceId, paymentId } = await paidInvoice();
    await strandedRefund(invoiceId, paymentId, 'flaky');
    usePaymentProcessor({ ...sandboxProcessor, refund: async () => { throw new Error('processor unreachable'); } });
    // Act
    const first = await reconcileDueRefunds(later());
    usePaymentProcessor(undefined);
    const second = await reconcileDueRefunds(later());
    // Assess
    expect(first.outcomes.failed).toBeGreaterThanOrEqual(1);
    expect(second.outcomes.completed).toBeGreaterThanOrEqual(1);
    expect(await refundsOf(invoiceId)).toMatchObject([{ amount: 3_000 }]);
  });
});
