import type { BackfillStep } from '../../shared/db/backfill.js';
import { invoiceProjectionsBackfill } from '../../shared/invoices/invoice-backfill.js';

/** Every backfill step of the data design: add a domain's step here when it adds derived items. */
export const BACKFILL_STEPS: readonly BackfillStep[] = [
  invoiceProjectionsBackfill,
];
