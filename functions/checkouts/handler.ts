import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import { createCheckoutOperation } from './create-checkout.js';
import { deleteCheckoutOperation } from './delete-checkout.js';
import { getCheckoutOperation } from './get-checkout.js';
import { listCheckoutsOperation } from './list-checkouts.js';
import { updateCheckoutOperation } from './update-checkout.js';

export const operations = [createCheckoutOperation, listCheckoutsOperation, getCheckoutOperation, updateCheckoutOperation, deleteCheckoutOperation];
export const handler = createGroupHandler('checkouts', operations, { idempotency: runIdempotent });
