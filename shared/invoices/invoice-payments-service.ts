import { NotFoundError, ValidationError } from '../errors.js';
import { assertPaidAtNotFuture, type CreateRefundInput, type Invoice, type Payment, type RecordPaymentInput, type Refund } from './invoice-model.js';
import { newId } from '../ids.js';
import type { LedgerEntry } from '../ledger/ledger-model.js';
import { assertBookingRoom, ledgerBookings } from '../ledger/ledger-repository.js';
import { availableAtFor, refundAvailableAt } from '../ledger/settlement.js';
import { StaleVersionError } from '../errors.js';
import { feesFor } from '../payments/fee-schedule.js';
import { paymentProcessor } from '../payments/processor-registry.js';
import type { PaymentRecord } from './invoice-model.js';
import { assertAllowed, assertPayable, statusAfterPayment } from './invoice-state.js';
import { formatInvoiceNumber } from './invoice-totals.js';
import { CARD_PAYMENT_BYTES, assertRoomFor, serializedBytes } from './invoice-size.js';
import { bodyKeyReused, paymentRequestDifferences, refundRequestDifferences } from './request-keys.js';
import * as repository from './invoices-repository.js';
import { changeInvoice, customerOf, nextVersion } from './invoices-service.js';

/** Ledger entries carry the event of the invoice: the first line item that names one. */
function eventOf(invoice: Invoice): string | undefined {
  return invoice.lineItems.find((line) => line.eventId !== undefined)?.eventId;
}

interface Applied {
  next: Invoice;
  effects: repository.InvoiceChangeEffects;
}

/**
 * Appends a payment to the invoice and, when it succeeded, its refund counter and ledger booking
 * (gross, fee schedule, settlement date, event, charge) for the same transaction.
 */
function applyPayment(workspaceId: string, invoice: Invoice, payment: Payment, changes: Partial<Invoice>, now: Date): Applied {
  const withPayment = nextVersion(invoice, { ...changes, payments: [...invoice.payments, payment] }, now);
  const status = statusAfterPayment(withPayment.status, payment.status, withPayment.amountDue);
  const next = { ...withPayment, status, ...(status === 'paid' && !withPayment.paidAt ? { paidAt: now.toISOString() } : {}) };
  if (payment.status !== 'succeeded') return { next, effects: {} };
  // Settlement runs from when the money was received: a manual payment recorded late is not held again.
  const receivedAt = new Date(Math.min(Date.parse(payment.paidAt), now.getTime()));
  const availableAt = availableAtFor(receivedAt, paymentProcessor().settlementDelaySeconds()).toISOString();
  const eventId = eventOf(invoice);
  const entry: LedgerEntry = {
    id: payment.ledgerEntryId as string,
    type: 'payment',
    currency: invoice.currency,
    gross: payment.amount,
    ...feesFor(payment.amount, invoice.currency, payment.method),
    refundedAmount: 0,
    paidOut: 0,
    ...(eventId === undefined ? {} : { eventId }),
    latestCharge: payment.chargeId ?? payment.id,
    invoiceId: invoice.id,
    paymentId: payment.id,
    availableAt,
    createdAt: now.toISOString(),
  };
  const record: PaymentRecord = {
    paymentId: payment.id,
    invoiceId: invoice.id,
    index: invoice.payments.length,
    amount: payment.amount,
    refundable: payment.amount,
    currency: invoice.currency,
    availableAt,
    ...(eventId === undefined ? {} : { eventId }),
    ...(payment.chargeId === undefined ? {} : { chargeId: payment.chargeId }),
  };
  return { next, effects: { paymentRecord: record, ledger: ledgerBookings(workspaceId, entry, now) } };
}

/**
 * Charges the customer's saved card through the processor. The processor idempotency key is bound to
 * the invoice and its number of payment attempts: concurrent duplicate charges, and retries after a
 * refund or revision raced the commit, reuse the same intent instead of charging twice.
 */
async function chargeCard(workspaceId: string, invoice: Invoice, amount: number, purpose: string, now: Date): Promise<Payment> {
  // Before the processor: a charge the invoice could not record is refused while no money moved.
  assertRoomFor(invoice, CARD_PAYMENT_BYTES, 'payments');
  await assertBookingRoom(workspaceId, invoice.currency, amount);
  const contact = await customerOf(workspaceId, invoice.customerId);
  const result = await paymentProcessor().charge({
    amount,
    currency: invoice.currency,
    paymentMethod: contact.defaultPaymentMethod,
    customerId: invoice.customerId,
    idempotencyKey: `${workspaceId}:invoice:${invoice.id}:attempt:${invoice.payments.length}:${purpose}`,
    description: `Invoice ${invoice.number ?? invoice.id}`,
  });
  const base = { id: newId(now), amount, amountRefunded: 0, paidAt: now.toISOString(), method: 'card' as const, externalId: result.intentId, refunds: [] };
  return result.status === 'succeeded'
    ? { ...base, status: 'succeeded', chargeId: result.chargeId, ledgerEntryId: newId(now) }
    : { ...base, status: 'failed', failureCode: result.failureCode, failureMessage: result.failureMessage };
}

/**
 * POST /v1/invoices/{id}/finalize: the next gapless number, `issuedAt`, and with `autoCharge` the
 * off-session charge, all in one transaction with the counter bump (retried when another finalize
 * took the number first).
 */
export async function finalizeInvoice(workspaceId: string, id: string, ifMatch: number | undefined): Promise<Invoice> {
  return changeInvoice(workspaceId, id, ifMatch, async (current) => {
    const now = new Date();
    assertAllowed('finalize', current.status);
    const previous = await repository.readInvoiceCounter(workspaceId);
    const issued = { number: formatInvoiceNumber(previous + 1), issuedAt: now.toISOString() };
    let applied: Applied;
    if (current.total === 0) {
      applied = { next: nextVersion(current, { ...issued, status: 'paid', paidAt: now.toISOString() }, now), effects: {} };
    } else if (current.autoCharge) {
      const payment = await chargeCard(workspaceId, { ...current, ...issued }, current.amountDue, 'finalize', now);
      applied = applyPayment(workspaceId, current, payment, { ...issued, status: 'open' }, now);
    } else {
      applied = { next: nextVersion(current, { ...issued, status: 'open' }, now), effects: {} };
    }
    await repository.commitInvoiceChange(workspaceId, current, applied.next, { ...applied.effects, numbering: { previous } });
    return applied.next;
  });
}

/** POST /v1/invoices/{id}/charge: charges `amountDue` with the saved card. */
export async function chargeInvoice(workspaceId: string, id: string): Promise<Invoice> {
  return changeInvoice(workspaceId, id, undefined, async (current) => {
    const now = new Date();
    assertAllowed('charge', current.status);
    const payment = await chargeCard(workspaceId, current, current.amountDue, 'charge', now);
    const { next, effects } = applyPayment(workspaceId, current, payment, {}, now);
    await repository.commitInvoiceChange(workspaceId, current, next, effects);
    return next;
  });
}

/** POST /v1/invoices/{id}/payments: a (partial) manual payment, applied once per idempotency key. */
export async function recordPayment(workspaceId: string, id: string, input: RecordPaymentInput): Promise<Payment> {
  return changeInvoice(workspaceId, id, undefined, async (current) => {
    const now = new Date();
    const existing = current.payments.find((payment) => payment.idempotencyKey === input.idempotencyKey);
    if (existing) {
      const differences = paymentRequestDifferences(existing, input);
      if (differences.length > 0) throw bodyKeyReused('a payment on this invoice', existing.amount, differences);
      return existing;
    }
    assertPaidAtNotFuture(input.paidAt, now);
    assertAllowed('record_payment', current.status);
    assertPayable(input.amount, current.amountDue);
    const payment: Payment = {
      id: newId(now),
      status: 'succeeded',
      amount: input.amount,
      amountRefunded: 0,
      paidAt: input.paidAt ?? now.toISOString(),
      idempotencyKey: input.idempotencyKey,
      ...(input.note === undefined ? {} : { note: input.note }),
      method: 'manual',
      ledgerEntryId: newId(now),
      refunds: [],
    };
    assertRoomFor(current, serializedBytes(payment), 'payments');
    const { next, effects } = applyPayment(workspaceId, current, payment, {}, now);
    await repository.commitInvoiceChange(workspaceId, current, next, {
      ...effects,
      paymentKey: { idempotencyKey: input.idempotencyKey, paymentId: payment.id },
    });
    return payment;
  });
}

/**
 * How long a reserved refund is left to its request before the reconciler finishes it: well past the
 * function's timeout, so the request (or the client's retry) normally completes it first.
 */
export const REFUND_COMPLETION_GRACE_MS = 2 * 60 * 1000;

/**
 * POST /v1/invoices/{id}/payments/{paymentId}/refunds, in two phases so that money never moves twice
 * or beyond the payment: (1) reserve: conditional decrement of the payment's `refundable` together
 * with the idempotency key; (2) ask the processor (idempotent by the same key); (3) complete: refund
 * on the invoice and ledger booking in one transaction. A retry with the same key resumes a reserved
 * refund or returns the completed one; without a retry, the reconciler finishes it after `completeBy`.
 */
export async function refundPayment(workspaceId: string, invoiceId: string, paymentId: string, input: CreateRefundInput): Promise<Refund> {
  return changeInvoice(workspaceId, invoiceId, undefined, async (invoice) => {
    const now = new Date();
    const payment = invoice.payments.find((candidate) => candidate.id === paymentId);
    if (!payment) throw new NotFoundError('Payment');
    const existing = payment.refunds.find((refund) => refund.idempotencyKey === input.idempotencyKey);
    if (existing) {
      const differences = refundRequestDifferences(existing, input);
      if (differences.length > 0) throw bodyKeyReused('a refund of this payment', existing.amount, differences);
      return existing;
    }
    const elsewhere = invoice.payments.flatMap((other) => other.refunds).find((refund) => refund.idempotencyKey === input.idempotencyKey);
    if (elsewhere) throw bodyKeyReused('a refund of another payment of this invoice', elsewhere.amount, ['paymentId']);
    if (payment.status !== 'succeeded') throw new ValidationError({ path: 'paymentId', message: 'only succeeded payments can be refunded' });
    assertAllowed('refund', invoice.status);
    const record = await repository.getPaymentRecord(workspaceId, paymentId);
    if (!record) throw new NotFoundError('Payment');
    let reservation = await repository.getRefundReservation(workspaceId, paymentId, input.idempotencyKey);
    // Completed by a concurrent retry after our read: read the invoice again, which now holds the refund.
    if (reservation?.state === 'completed') throw new StaleVersionError('invoice');
    // Reserved by an earlier request with this key that has not completed: resumed only for the same request.
    const reservedDifferences = reservation ? refundRequestDifferences(reservation, input) : [];
    if (reservation && reservedDifferences.length > 0) throw bodyKeyReused('a refund of this payment', reservation.amount, reservedDifferences);
    if (!reservation) {
      if (input.amount > record.refundable) throw exceeds(record.refundable);
      reservation = {
        refundId: newId(now),
        ledgerEntryId: newId(now),
        amount: input.amount,
        ...(input.reason === undefined ? {} : { reason: input.reason }),
        ...(input.note === undefined ? {} : { note: input.note }),
        refundedAt: now.toISOString(),
        completeBy: new Date(now.getTime() + REFUND_COMPLETION_GRACE_MS).toISOString(),
        state: 'reserved',
      };
      // Before the reservation, the first write: a refund the invoice could not record is refused
      // before any money moves. A resumed reservation was measured when it was made.
      assertRoomFor(invoice, serializedBytes({ ...reservation, id: reservation.refundId, paymentId, idempotencyKey: input.idempotencyKey }), 'refunds');
      try {
        await repository.reserveRefund(workspaceId, record, input.idempotencyKey, reservation);
      } catch (error) {
        if (error instanceof repository.RefundExceedsPaymentError) throw exceeds(undefined);
        throw error;
      }
    }
    return finishRefund(workspaceId, { invoice, payment, record, reservation, idempotencyKey: input.idempotencyKey }, now);
  });
}

/** A reserved refund and what finishing it needs. */
export interface ReservedRefund {
  invoice: Invoice;
  payment: Payment;
  record: PaymentRecord;
  reservation: repository.RefundReservation;
  idempotencyKey: string;
}

/**
 * Phases 2 and 3 of a reserved refund: the processor refund (idempotent by the refund's key, so a
 * resumed refund never pays twice), then the completion. The request and the reconciler both end here.
 */
export async function finishRefund(workspaceId: string, reserved: ReservedRefund, now: Date): Promise<Refund> {
  const { invoice, payment, record, reservation, idempotencyKey } = reserved;
  const external = payment.chargeId === undefined
    ? undefined
    : await paymentProcessor().refund({
      chargeId: payment.chargeId,
      amount: reservation.amount,
      currency: invoice.currency,
      idempotencyKey: `${workspaceId}:refund:${payment.id}:${idempotencyKey}`,
      reason: reservation.reason,
    });
  const refund: Refund = {
    id: reservation.refundId,
    paymentId: payment.id,
    amount: reservation.amount,
    refundedAt: reservation.refundedAt,
    idempotencyKey,
    ...(reservation.reason === undefined ? {} : { reason: reservation.reason }),
    ...(reservation.note === undefined ? {} : { note: reservation.note }),
    ...(external === undefined ? {} : { externalRefundId: external.refundId }),
    ledgerEntryId: reservation.ledgerEntryId,
  };
  const entry: LedgerEntry = {
    id: refund.ledgerEntryId,
    type: 'refund',
    currency: invoice.currency,
    gross: 0,
    platformFee: 0,
    processorFee: 0,
    fees: 0,
    refundedAmount: refund.amount,
    paidOut: 0,
    net: -refund.amount,
    ...(record.eventId === undefined ? {} : { eventId: record.eventId }),
    latestCharge: payment.chargeId ?? payment.id,
    invoiceId: invoice.id,
    paymentId: payment.id,
    refundId: refund.id,
    availableAt: refundAvailableAt(record.availableAt, now).toISOString(),
    createdAt: now.toISOString(),
  };
  await repository.completeRefund(workspaceId, { record, refund, reservation, updatedAt: now.toISOString(), ledger: ledgerBookings(workspaceId, entry, now) });
  return refund;
}

function exceeds(refundable: number | undefined): ValidationError {
  const left = refundable === undefined ? '' : ` (${refundable} left to refund)`;
  return new ValidationError({ path: 'amount', message: `cumulative refunds must not exceed the payment amount${left}` });
}
