import { addIndexAttributes, type BackfillStep } from '../db/backfill.js';
import { PARTNER_ENTITY, fromPartnerItem, partnerDirectoryEntry } from './partner-model.js';

/** The directory entry (admin `partner list`) of partners made before the directory existed. */
export const partnerDirectoryBackfill: BackfillStep = {
  name: 'partner directory entries (admin partner list)',
  entity: PARTNER_ENTITY,
  rebuild: (item) => addIndexAttributes(item, partnerDirectoryEntry(fromPartnerItem(item))),
};
