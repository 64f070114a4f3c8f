import type { BackfillStep } from '../../shared/db/backfill.js';
import { EVENT_BACKFILL_STEPS } from '../../shared/events/event-backfill.js';
import { formStatusBackfill } from '../../shared/forms/form-backfill.js';
import { invoiceProjectionsBackfill } from '../../shared/invoices/invoice-backfill.js';
import { payoutItemsBackfill } from '../../shared/ledger/payout-backfill.js';
import { partnerDirectoryBackfill } from '../../shared/partners/partner-backfill.js';
import { propertyListBackfill } from '../../shared/properties/property-backfill.js';
import { responseByContactBackfill } from '../../shared/responses/response-backfill.js';
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
];
