import { solidPng } from '../../../shared/images/sample-images.js';
import { localBlobDir } from '../../../shared/blob-store/local-blob-store.js';
import { LocalUploadStore, localUploadDir } from '../../../shared/blob-store/local-upload-store.js';
import { putItem } from '../../../shared/db/conditional.js';
import { getImageUpload } from '../../../shared/images/image-uploads-repository.js';
import { newId } from '../../../shared/ids.js';
import { createPartner } from '../../../shared/partners/partners-repository.js';
import { eventBody, toDeliveryItem, toEventItem } from '../../../shared/webhooks/webhook-model.js';
import type { TestApi, TestWorkspace } from '../support/api.js';

/**
 * One workspace holding an object of every kind the routes act on, built through the API (so it obeys
 * every rule), and one request per route of the route table. The fault suite snapshots the tables
 * after the fixture, runs each route's request once cleanly to learn its DynamoDB calls, then once
 * per (call, fault) and restores the snapshot between runs.
 */

type Json = Record<string, unknown>;

export interface Fixture {
  workspace: TestWorkspace;
  referralCode: string;
  propertyId: string;
  contactId: string;
  /** Active standalone form: email (contact), a select, a yes/no revealing a text, a text. */
  formId: string;
  emailElementId: string;
  selectElementId: string;
  yesNoElementId: string;
  revealedElementId: string;
  plainElementId: string;
  /** Order form: an element that can move to the attendee section. */
  orderFormId: string;
  orderElementId: string;
  eventId: string;
  imageId: string;
  /** A two-step upload whose bytes are staged (pending): completing it registers an image. */
  imageUploadId: string;
  /** Where its bytes are staged in the local upload store. */
  imageUploadStagingKey: string;
  checkoutId: string;
  draftInvoiceId: string;
  openInvoiceId: string;
  cardInvoiceId: string;
  paidInvoiceId: string;
  paidPaymentId: string;
  /** A payout of the settled money. */
  payoutId: string;
  responseId: string;
  webhookEndpointId: string;
  /** A delivery of an outbox event to the endpoint (written directly: the dispatcher is not part of a request). */
  webhookDeliveryId: string;
}

export interface ScenarioRequest {
  path: string;
  body?: unknown;
  raw?: Uint8Array;
  contentType?: string;
  /**
   * Puts back state outside DynamoDB that the table snapshot restores do not cover, before each run
   * (no DynamoDB calls: they would count as the route's).
   */
  prepare?: () => Promise<void>;
}

/** The request each operation of the route table is exercised with. */
export type Scenarios = Record<string, (fixture: Fixture) => ScenarioRequest>;

const PNG = new Uint8Array(solidPng(8, 8, [10, 20, 30]));

export const scenarios: Scenarios = {
  getHealth: () => ({ path: '/health' }),
  getApiInfo: () => ({ path: '/v1' }),
  getOpenApiDocument: () => ({ path: '/openapi.json' }),
  getDocsPage: () => ({ path: '/docs' }),
  getDocsAsset: () => ({ path: '/docs/swagger-ui.css' }),
  getWidgetScript: () => ({ path: '/widget/v1/boxoffice.js' }),

  createForm: () => ({ path: '/v1/forms', body: { name: 'Fault form', type: 'standalone' } }),
  listForms: () => ({ path: '/v1/forms?limit=5' }),
  getForm: (f) => ({ path: `/v1/forms/${f.formId}` }),
  editFormSettings: (f) => ({ path: `/v1/forms/${f.formId}`, body: { name: 'Renamed under faults' } }),
  replaceFormLayout: (f) => ({
    path: `/v1/forms/${f.formId}/layout`,
    body: {
      rows: [
        { columns: [{ elementIndex: 0, widthFraction: 0.5 }, { elementIndex: 1, widthFraction: 0.5 }] },
        { columns: [{ elementIndex: 2, widthFraction: 1 }] },
        { columns: [{ elementIndex: 3, widthFraction: 1 }] },
        { columns: [{ elementIndex: 4, widthFraction: 1 }] },
      ],
      attendeeRowsStart: 0,
    },
  }),
  duplicateForm: (f) => ({ path: `/v1/forms/${f.formId}/duplicate`, body: {} }),
  addFormElement: (f) => ({ path: `/v1/forms/${f.formId}/elements`, body: { type: 'Text', prompt: 'Added under faults' } }),
  updateFormElement: (f) => ({ path: `/v1/forms/${f.formId}/elements/${f.plainElementId}`, body: { prompt: 'Changed under faults' } }),
  deleteFormElement: (f) => ({ path: `/v1/forms/${f.formId}/elements/${f.plainElementId}` }),
  toggleElementOther: (f) => ({ path: `/v1/forms/${f.formId}/elements/${f.selectElementId}/other`, body: { enabled: true, otherPrompt: 'Something else' } }),
  moveFormElement: (f) => ({ path: `/v1/forms/${f.orderFormId}/elements/${f.orderElementId}/move`, body: { section: 'attendee' } }),
  addLogicRule: (f) => ({
    path: `/v1/forms/${f.formId}/elements/${f.selectElementId}/logic-rules`,
    body: { revealedElementId: f.plainElementId, condition: { optionIndices: [0], operator: 'any_of' } },
  }),
  removeLogicRule: (f) => ({ path: `/v1/forms/${f.formId}/elements/${f.yesNoElementId}/logic-rules/${f.revealedElementId}` }),

  createProperty: () => ({ path: '/v1/properties', body: { type: 'Text', name: 'Fault property', objectType: 'contact' } }),
  listProperties: () => ({ path: '/v1/properties?limit=5' }),
  getProperty: (f) => ({ path: `/v1/properties/${f.propertyId}` }),
  updateProperty: (f) => ({ path: `/v1/properties/${f.propertyId}`, body: { name: 'Renamed size' } }),

  createContact: () => ({ path: '/v1/contacts', body: { email: 'new.fault@example.com', firstName: 'New' } }),
  listContacts: () => ({ path: '/v1/contacts?limit=5' }),
  getContact: (f) => ({ path: `/v1/contacts/${f.contactId}` }),
  updateContact: (f) => ({ path: `/v1/contacts/${f.contactId}`, body: { firstName: 'Changed' } }),

  createEvent: (f) => ({ path: '/v1/events', body: event(f, 'Created under faults') }),
  listEvents: () => ({ path: '/v1/events?limit=5' }),
  getEvent: (f) => ({ path: `/v1/events/${f.eventId}` }),
  updateEvent: (f) => ({ path: `/v1/events/${f.eventId}`, body: { name: 'Renamed event' } }),

  listPartnerEvents: (f) => ({ path: `/partner/events?referral_code=${f.referralCode}` }),

  registerImage: () => ({ path: '/v1/assets/images?filename=fault.png', raw: PNG, contentType: 'image/png' }),
  listImages: () => ({ path: '/v1/assets/images' }),
  getImage: (f) => ({ path: `/v1/assets/images/${f.imageId}` }),
  createImageUpload: () => ({ path: '/v1/assets/images/uploads', body: { filename: 'large.png', contentType: 'image/png', sizeBytes: PNG.length } }),
  completeImageUpload: (f) => ({
    path: `/v1/assets/images/uploads/${f.imageUploadId}/complete`,
    body: {},
    // Completing discards the staged bytes; the restored tables hold the upload as pending again, so the bytes go back too.
    prepare: () => new LocalUploadStore(localUploadDir(), localBlobDir()).put(f.imageUploadStagingKey, PNG),
  }),

  createCheckout: (f) => ({ path: '/v1/checkouts', body: { name: 'Fault checkout', eventId: f.eventId } }),
  listCheckouts: () => ({ path: '/v1/checkouts' }),
  getCheckout: (f) => ({ path: `/v1/checkouts/${f.checkoutId}` }),
  updateCheckout: (f) => ({ path: `/v1/checkouts/${f.checkoutId}`, body: { name: 'Renamed checkout' } }),
  deleteCheckout: (f) => ({ path: `/v1/checkouts/${f.checkoutId}` }),

  createInvoice: (f) => ({ path: '/v1/invoices', body: invoice(f.contactId) }),
  listInvoices: () => ({ path: '/v1/invoices?limit=5' }),
  getInvoice: (f) => ({ path: `/v1/invoices/${f.draftInvoiceId}` }),
  reviseInvoice: (f) => ({ path: `/v1/invoices/${f.draftInvoiceId}`, body: { notes: 'Revised under faults' } }),
  finalizeInvoice: (f) => ({ path: `/v1/invoices/${f.draftInvoiceId}/finalize`, body: {} }),
  chargeInvoice: (f) => ({ path: `/v1/invoices/${f.cardInvoiceId}/charge`, body: {} }),
  recordInvoicePayment: (f) => ({ path: `/v1/invoices/${f.openInvoiceId}/payments`, body: { amount: 1_000, idempotencyKey: 'fault-payment' } }),
  refundInvoicePayment: (f) => ({
    path: `/v1/invoices/${f.paidInvoiceId}/payments/${f.paidPaymentId}/refunds`,
    body: { amount: 500, idempotencyKey: 'fault-refund', reason: 'requested_by_customer' },
  }),
  voidInvoice: (f) => ({ path: `/v1/invoices/${f.draftInvoiceId}/void`, body: {} }),

  getPayoutBalance: () => ({ path: '/v1/events/balance' }),
  createPayout: () => ({ path: '/v1/payouts', body: { currency: 'USD', amount: 1_000 } }),
  listPayouts: () => ({ path: '/v1/payouts?limit=5' }),
  getPayout: (f) => ({ path: `/v1/payouts/${f.payoutId}` }),

  getPublicForm: (f) => ({ path: `/forms/${f.formId}` }),
  listFormResponses: (f) => ({ path: `/v1/forms/${f.formId}/responses` }),
  getFormResponse: (f) => ({ path: `/v1/forms/${f.formId}/responses/${f.responseId}` }),
  submitFormResponse: (f) => ({ path: `/forms/${f.formId}/responses`, body: { answers: { [f.emailElementId]: 'respondent@example.com', [f.yesNoElementId]: false } } }),

  createWebhookEndpoint: () => ({ path: '/v1/webhook-endpoints', body: { url: 'http://127.0.0.1:9/faults', events: ['invoice.paid'] } }),
  listWebhookEndpoints: () => ({ path: '/v1/webhook-endpoints' }),
  getWebhookEndpoint: (f) => ({ path: `/v1/webhook-endpoints/${f.webhookEndpointId}` }),
  updateWebhookEndpoint: (f) => ({ path: `/v1/webhook-endpoints/${f.webhookEndpointId}`, body: { description: 'Changed under faults' } }),
  deleteWebhookEndpoint: (f) => ({ path: `/v1/webhook-endpoints/${f.webhookEndpointId}` }),
  rotateWebhookEndpointSecret: (f) => ({ path: `/v1/webhook-endpoints/${f.webhookEndpointId}/rotate-secret`, body: {} }),
  listWebhookDeliveries: (f) => ({ path: `/v1/webhook-endpoints/${f.webhookEndpointId}/deliveries` }),
  redeliverWebhook: (f) => ({ path: `/v1/webhook-endpoints/${f.webhookEndpointId}/deliveries/${f.webhookDeliveryId}/redeliver`, body: {} }),
};

/** Fixed for the whole run: a replay must send the very same body (its fingerprint is checked). */
const EVENT_START = new Date(Date.now() + 7 * 86_400_000);

function event(f: Fixture, name: string): Json {
  const start = EVENT_START;
  return {
    name,
    start: start.toISOString(),
    end: new Date(start.getTime() + 3 * 3_600_000).toISOString(),
    status: 'published',
    visibility: 'public',
    referral_code: f.referralCode,
    currency: 'USD',
    products: [{ name: 'General admission', price: 4_500, required: true }],
  };
}

function invoice(customerId: string, extra: Json = {}): Json {
  return { customerId, currency: 'USD', lineItems: [{ description: 'Ticket', quantity: 2, unitAmount: 5_000 }], ...extra };
}

/** Builds the fixture through the API; every step must succeed. */
export async function buildFixture(api: TestApi): Promise<Fixture> {
  const workspace = await api.newWorkspace('Fault injection');
  const call = async (method: string, path: string, body?: unknown, options: { raw?: Uint8Array; contentType?: string } = {}) => {
    const response = await api.request(method, path, {
      key: workspace.apiKey,
      ...(body === undefined ? {} : { body }),
      ...(options.raw ? { raw: options.raw, headers: { 'content-type': options.contentType ?? 'application/octet-stream' } } : {}),
    });
    if (response.status >= 300) throw new Error(`Fixture ${method} ${path}: ${response.status} ${response.text}`);
    return response.body?.data as Json & { id: string };
  };
  const referralCode = `FAULTS-${Date.now().toString(36).toUpperCase()}`;
  await createPartner({ referral_code: referralCode, firstName: 'Fay', lastName: 'Ult', companyName: 'Faults Inc', email: 'faults@example.com', username: 'faults', tags: [] });

  const property = await call('POST', '/v1/properties', { type: 'Select One', name: 'Size', objectType: 'contact', options: [{ value: 's', label: 'Small' }, { value: 'm', label: 'Medium' }] });
  const contact = await call('POST', '/v1/contacts', { email: 'buyer@example.com', firstName: 'Ada', defaultPaymentMethod: 'pm_card_visa' });

  const form = await call('POST', '/v1/forms', { name: 'Signup', type: 'standalone', status: 'active' });
  const email = await call('POST', `/v1/forms/${form.id}/elements`, { type: 'Email', prompt: 'Email', required: true, contactField: 'email' });
  const select = await call('POST', `/v1/forms/${form.id}/elements`, { type: 'Select One', prompt: 'Size', options: ['S', 'M', 'L'] });
  const yesNo = await call('POST', `/v1/forms/${form.id}/elements`, { type: 'Yes/No', prompt: 'Newsletter?', dropdown: true, contactField: 'status' });
  const revealed = await call('POST', `/v1/forms/${form.id}/elements`, { type: 'Text', prompt: 'Topics?' });
  const plain = await call('POST', `/v1/forms/${form.id}/elements`, { type: 'Text', prompt: 'Comment' });
  await call('POST', `/v1/forms/${form.id}/elements/${yesNo.id}/logic-rules`, { revealedElementId: revealed.id, condition: { selectionType: 'is', value: true } });
  const orderForm = await call('POST', '/v1/forms', { name: 'Order', type: 'order', status: 'active' });
  const orderElement = await call('POST', `/v1/forms/${orderForm.id}/elements`, { type: 'Text', prompt: 'Attendee name' });

  const partial: Pick<Fixture, 'referralCode'> = { referralCode };
  const createdEvent = await call('POST', '/v1/events', event(partial as Fixture, 'Fault concert'));
  const image = await call('POST', '/v1/assets/images?filename=poster.png', undefined, { raw: PNG, contentType: 'image/png' });
  const upload = await call('POST', '/v1/assets/images/uploads', { filename: 'large.png', contentType: 'image/png', sizeBytes: PNG.length });
  const { url, headers } = upload.upload as { url: string; headers: Record<string, string> };
  const staged = await fetch(url, { method: 'PUT', headers, body: PNG });
  if (staged.status !== 200) throw new Error(`Fixture upload PUT: ${staged.status} ${await staged.text()}`);
  const stagingKey = (await getImageUpload(workspace.workspaceId, upload.id))?.stagingKey as string;
  const checkout = await call('POST', '/v1/checkouts', { name: 'Tickets', eventId: createdEvent.id });

  const draft = await call('POST', '/v1/invoices', invoice(contact.id));
  const open = await call('POST', '/v1/invoices', invoice(contact.id));
  await call('POST', `/v1/invoices/${open.id}/finalize`, {});
  const card = await call('POST', '/v1/invoices', invoice(contact.id));
  await call('POST', `/v1/invoices/${card.id}/finalize`, {});
  // Paid by card (refundable), and money settled long ago (available for a payout).
  const paid = await call('POST', '/v1/invoices', invoice(contact.id, { autoCharge: true }));
  const paidFinal = await call('POST', `/v1/invoices/${paid.id}/finalize`, {});
  const settled = await call('POST', '/v1/invoices', invoice(contact.id));
  await call('POST', `/v1/invoices/${settled.id}/finalize`, {});
  await call('POST', `/v1/invoices/${settled.id}/payments`, { amount: 10_000, idempotencyKey: 'settled', paidAt: new Date(Date.now() - 5 * 86_400_000).toISOString() });
  const payout = await call('POST', '/v1/payouts', { currency: 'USD', amount: 500 });

  const endpoint = await call('POST', '/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks', events: ['*'] });
  const now = new Date();
  const webhookEvent = { id: newId(now), type: 'invoice.paid' as const, workspaceId: workspace.workspaceId, timestamp: now.toISOString(), body: '' };
  webhookEvent.body = eventBody(webhookEvent.id, webhookEvent.type, webhookEvent.timestamp, { id: paid.id });
  await putItem(toEventItem(webhookEvent, now));
  const delivery = {
    id: newId(now), workspaceId: workspace.workspaceId, endpointId: endpoint.id, eventId: webhookEvent.id, type: webhookEvent.type,
    status: 'failed' as const, attempts: 8, createdAt: now.toISOString(),
  };
  await putItem(toDeliveryItem(delivery, now));

  const submitted = await api.request('POST', `/forms/${form.id}/responses`, { body: { answers: { [email.id]: 'first@example.com', [yesNo.id]: false } } });
  if (submitted.status !== 201) throw new Error(`Fixture response: ${submitted.status} ${submitted.text}`);

  return {
    workspace,
    referralCode,
    propertyId: property.id,
    contactId: contact.id,
    formId: form.id,
    emailElementId: email.id,
    selectElementId: select.id,
    yesNoElementId: yesNo.id,
    revealedElementId: revealed.id,
    plainElementId: plain.id,
    orderFormId: orderForm.id,
    orderElementId: orderElement.id,
    eventId: createdEvent.id,
    imageId: image.id,
    imageUploadId: upload.id,
    imageUploadStagingKey: stagingKey,
    checkoutId: checkout.id,
    draftInvoiceId: draft.id,
    openInvoiceId: open.id,
    cardInvoiceId: card.id,
    paidInvoiceId: paid.id,
    paidPaymentId: (paidFinal.payments as { id: string }[])[0]?.id as string,
    payoutId: payout.id,
    responseId: (submitted.body as { data: { id: string } }).data.id,
    webhookEndpointId: endpoint.id,
    webhookDeliveryId: delivery.id,
  };
}
