import type { BackfillStep } from '../db/backfill.js';
import { putItem } from '../db/conditional.js';
import { FORM_RESPONSE_ENTITY, fromResponseItem, toResponseByContactItem, workspaceOfResponseItem } from './response-model.js';

/**
 * The `contactId` projection of responses submitted before it existed (local data kept with
 * `--data-dir`): one idempotent put per response that has a contact. Responses never change, so no
 * version check is needed and a second run changes nothing.
 */
export const responseByContactBackfill: BackfillStep = {
  name: 'form response projections by contact',
  entity: FORM_RESPONSE_ENTITY,
  async rebuild(item) {
    const response = fromResponseItem(item);
    const contactId = response.contactId;
    if (contactId === undefined) return 0;
    await putItem(toResponseByContactItem(workspaceOfResponseItem(item), { ...response, contactId }));
    return 1;
  },
};
