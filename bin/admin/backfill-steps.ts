import { checkoutListBackfill } from '../../shared/checkouts/checkout-backfill.js';
import { CONTACT_ENTITY } from '../../shared/contacts/contact-model.js';
import { creationOrderBackfill, type BackfillStep } from '../../shared/db/backfill.js';
import { EVENT_BACKFILL_STEPS } from '../../shared/events/event-backfill.js';
import { formStatusBackfill } from '../../shared/forms/form-backfill.js';
import { FORM_ENTITY } from '../../shared/forms/form-model.js';
import { invoiceProjectionsBackfill } from '../../shared/invoices/invoice-backfill.js';
import { INVOICE_ENTITY } from '../../shared/invoices/invoice-model.js';
import { ledgerOrderBackfill } from '../../shared/ledger/ledger-backfill.js';
import { payoutItemsBackfill } from '../../shared/ledger/payout-backfill.js';
import { partnerDirectoryBackfill } from '../../shared/partners/partner-backfill.js';
import { propertyListBackfill } from '../../shared/properties/property-backfill.js';
import { responseByContactBackfill } from '../../shared/responses/response-backfill.js';
import { FORM_RESPONSE_ENTITY } from '../../shared/responses/response-model.js';
import { WEBHOOK_DELIVERY_ENTITY, WEBHOOK_ENDPOINT_ENTITY } from '../../shared/webhooks/webhook-model.js';
import { WORKSPACE_BACKFILL_STEPS } from '../../shared/workspaces/workspace-backfill.js';

/** Every backfill step of the data design: add a domain's step here when it adds derived items. */
export const BACKFILL_STEPS: readonly BackfillStep[] = [
  invoiceProjectionsBackfill,
  ...EVENT_BACKFILL_STEPS,
  propertyListBackfill,
  formStatusBackfill,
  responseByContactBackfill,
  payoutItemsBackfill,
  ...WORKSPACE_BACKFILL_STEPS,
  partnerDirectoryBackfill,
  ledgerOrderBackfill,
  // Creation order (byCreatedAt): main items here; properties and every projection get theirs from
  // the steps above, which rebuild them with their model's builders.
  creationOrderBackfill(FORM_ENTITY, 'forms'),
  creationOrderBackfill(CONTACT_ENTITY, 'contacts'),
  creationOrderBackfill(INVOICE_ENTITY, 'invoices'),
  creationOrderBackfill(FORM_RESPONSE_ENTITY, 'form responses'),
  creationOrderBackfill(WEBHOOK_ENDPOINT_ENTITY, 'webhook endpoints'),
  creationOrderBackfill(WEBHOOK_DELIVERY_ENTITY, 'webhook deliveries'),
  checkoutListBackfill,
];
