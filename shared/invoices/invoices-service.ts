import { getContact } from '../contacts/contacts-repository.js';
import type { Contact } from '../contacts/contact-model.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { PageRequest } from '../db/query.js';
import { readModifyWrite } from '../db/read-modify-write.js';
import { INVOICE_ROUND_TRIP, type CreateInvoiceInput, type Invoice, type InvoiceListFilter, type LineItem, type ReviseInvoiceInput } from './invoice-model.js';
import { mergePatch } from '../model/merge-patch.js';
import { checkEchoed, dropEchoed, sameContent } from '../model/round-trip.js';
import { newId } from '../ids.js';
import { assertAllowed, assertVoidable } from './invoice-state.js';
import { computeTotals } from './invoice-totals.js';
import { assertInvoiceSize } from './invoice-size.js';
import { allChecked, assertEventsExist, type EventReference } from '../events/event-references.js';
import * as repository from './invoices-repository.js';

/** The invoice customer: a contact of the workspace, else 422 on `customerId`. */
export async function customerOf(workspaceId: string, customerId: string): Promise<Contact> {
  const contact = await getContact(workspaceId, customerId, { consistent: true });
  if (!contact) throw new ValidationError({ path: 'customerId', message: 'must be the id of a contact of this workspace' });
  return contact;
}

type Snapshots = Pick<Invoice, 'customerEmail' | 'customerFirstName' | 'customerLastName' | 'customerPhone'>;

/** Snapshots given by the caller win; missing ones are copied from the contact. */
function snapshotsOf(given: Snapshots, contact: Contact): Snapshots {
  const pick = (value: string | undefined, fallback: string | undefined) => value ?? fallback;
  const snapshots: Snapshots = {
    customerEmail: pick(given.customerEmail, contact.email),
    customerFirstName: pick(given.customerFirstName, contact.firstName),
    customerLastName: pick(given.customerLastName, contact.lastName),
    customerPhone: pick(given.customerPhone, contact.phone),
  };
  return Object.fromEntries(Object.entries(snapshots).filter(([, value]) => value !== undefined)) as Snapshots;
}

/** Reads an invoice of the workspace; absent or foreign is the same 404. */
export async function requireInvoice(workspaceId: string, id: string, options: { consistent?: boolean } = {}): Promise<Invoice> {
  const invoice = await repository.getInvoice(workspaceId, id, options);
  if (!invoice) throw new NotFoundError('Invoice');
  return invoice;
}

/**
 * Every change of an existing invoice: read (strongly), decide, commit conditioned on the version
 * read (`readModifyWrite`). Besides a moved version, a finalize that lost the number to another one
 * and a payment or refund key recorded concurrently mean "read again and decide again".
 */
export function changeInvoice<R>(workspaceId: string, id: string, ifMatch: number | undefined, write: (current: Invoice) => Promise<R>): Promise<R> {
  return readModifyWrite({
    resource: 'invoice',
    ifMatch,
    read: () => requireInvoice(workspaceId, id, { consistent: true }),
    write,
    retryOn: (error) => error instanceof repository.InvoiceNumberTakenError || error instanceof repository.IdempotencyKeyTakenError,
  });
}

/** Bumps version and updatedAt and recomputes every derived figure. */
export function nextVersion(invoice: Invoice, changes: Partial<Invoice>, now: Date): Invoice {
  const next = { ...invoice, ...changes, version: invoice.version + 1, updatedAt: now.toISOString() };
  return { ...next, ...computeTotals(next.lineItems, next.payments) };
}

/** The events the line items sell, with their paths; `known` ids (already on the invoice) are not checked again. */
function lineEventReferences(lineItems: readonly { eventId?: string | undefined }[], known: ReadonlySet<string> = new Set()): EventReference[] {
  return lineItems.flatMap((line, index) => (line.eventId === undefined || known.has(line.eventId) ? [] : [{ path: `lineItems[${index}].eventId`, eventId: line.eventId }]));
}

/**
 * A line's `inventoryConsumedAt` is server-owned (spec "Invoice > Line item": stamped by fulfillment),
 * so it is never taken from a body: a create ignores it, as it ignores the invoice's own read-only
 * fields. Only drafts are revised and fulfillment stamps paid invoices, so revised lines carry none.
 */
function withoutStamps<L extends { inventoryConsumedAt?: string | undefined }>(lines: readonly L[]): Omit<L, 'inventoryConsumedAt'>[] {
  return lines.map(({ inventoryConsumedAt: _serverOwned, ...line }) => line);
}

/**
 * A revise takes a GET body back (API.md "Round trips"): each line's stamp is accepted when it is the
 * stored one of the line at the same position and is 422 otherwise, like the invoice's read-only fields.
 */
function checkStamps(current: Invoice, lines: readonly LineItem[]): void {
  const details = lines.flatMap((line, index) => (line.inventoryConsumedAt === undefined || line.inventoryConsumedAt === current.lineItems[index]?.inventoryConsumedAt
    ? []
    : [{ path: `lineItems[${index}].inventoryConsumedAt`, message: 'is read-only (stamped by fulfillment): send the value you read, or leave it out' }]));
  if (details.length > 0) throw new ValidationError(details);
}

/** POST /v1/invoices: a draft with `number` null and totals from its line items. */
export async function createInvoice(workspaceId: string, body: CreateInvoiceInput, now = new Date()): Promise<Invoice> {
  // A GET body is taken as a copy: a new draft with its own id, number, payments and totals.
  const echoed = dropEchoed(body, INVOICE_ROUND_TRIP);
  const input = { ...echoed, lineItems: withoutStamps(echoed.lineItems) };
  const [contact] = await allChecked<[Contact, void]>([customerOf(workspaceId, input.customerId), assertEventsExist(workspaceId, lineEventReferences(input.lineItems))]);
  const { customerEmail, customerFirstName, customerLastName, customerPhone, autoCharge, taxIds, ...rest } = input;
  const timestamp = now.toISOString();
  const invoice: Invoice = {
    ...rest,
    id: newId(now),
    hostId: workspaceId,
    ...snapshotsOf({ customerEmail, customerFirstName, customerLastName, customerPhone }, contact),
    number: null,
    payments: [],
    ...computeTotals(input.lineItems),
    status: 'draft',
    autoCharge: autoCharge ?? false,
    taxIds: taxIds ?? [],
    version: 1,
    createdAt: timestamp,
    updatedAt: timestamp,
  };
  assertInvoiceSize(invoice);
  await repository.insertInvoice(workspaceId, invoice);
  return invoice;
}

export async function listInvoices(workspaceId: string, filter: InvoiceListFilter, request: PageRequest) {
  return repository.listInvoices(workspaceId, filter, request);
}

/** PATCH /v1/invoices/{id}: draft only; a new customer refreshes the snapshots not given. */
export async function reviseInvoice(workspaceId: string, id: string, sent: ReviseInvoiceInput, ifMatch: number | undefined): Promise<Invoice> {
  return changeInvoice(workspaceId, id, ifMatch, async (current) => {
    const now = new Date();
    const echoed = checkEchoed(current, sent, INVOICE_ROUND_TRIP);
    if (echoed.lineItems) checkStamps(current, echoed.lineItems);
    const patch = echoed.lineItems ? { ...echoed, lineItems: withoutStamps(echoed.lineItems) } : echoed;
    // References first (API.md): a new customer or an unknown line event is reported on its field, whatever the status.
    const customerChanged = patch.customerId !== undefined && patch.customerId !== current.customerId;
    const known = new Set(current.lineItems.flatMap((line) => (line.eventId === undefined ? [] : [line.eventId])));
    const [customer] = await allChecked<[Contact | undefined, void]>([
      customerChanged ? customerOf(workspaceId, patch.customerId as string) : Promise.resolve(undefined),
      assertEventsExist(workspaceId, lineEventReferences(patch.lineItems ?? [], known)),
    ]);
    assertAllowed('revise', current.status);
    // A new customer's snapshots replace the old ones, then the patch applies (the snapshots it gives win,
    // and `null` removes an optional field, a refreshed snapshot included), then the version and totals.
    const base = customer
      ? { ...current, customerEmail: undefined, customerFirstName: undefined, customerLastName: undefined, customerPhone: undefined, ...snapshotsOf({}, customer) }
      : current;
    const revised = mergePatch(base, patch);
    if (sameContent(revised, current)) return current;
    const next = nextVersion(revised, {}, now);
    assertInvoiceSize(next);
    await repository.saveInvoice(workspaceId, current, next);
    return next;
  });
}

/** POST /v1/invoices/{id}/void: never once money was taken. */
export async function voidInvoice(workspaceId: string, id: string, ifMatch: number | undefined): Promise<Invoice> {
  return changeInvoice(workspaceId, id, ifMatch, async (current) => {
    const now = new Date();
    assertVoidable(current.status, current.amountPaid);
    const next = nextVersion(current, { status: 'void', voidedAt: now.toISOString() }, now);
    await repository.saveInvoice(workspaceId, current, next);
    return next;
  });
}
