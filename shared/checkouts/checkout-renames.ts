import { readModifyWrite } from '../db/read-modify-write.js';
import type { ItemKey } from '../db/table-design.js';
import { StaleVersionError } from '../errors.js';
import { logger } from '../logger.js';
import type { StoredCheckout } from './checkout-model.js';
import { ListNameChangedError, checkoutIdsKeyedWithOtherName, findCheckout, rekeyCheckout } from './checkouts-repository.js';

/**
 * Sorting checkouts by `event` or `form` orders them by the event's or form's name, which their list
 * projections carry in their keys. When an event or form is renamed, its checkouts' projections are
 * re-keyed here, right after the rename is stored: one strongly consistent Query of the checkouts that
 * reference it, then one transaction per checkout whose projections still carry another name.
 *
 * Checkout writes check, in their transaction, that the names they keyed with are still current, so a
 * write racing with a rename either lands before it (and is re-keyed here) or fails and is redone with
 * the new name. A re-keying overtaken by a later rename stops: the later one finishes the job. If it
 * stops half-way (a fault, a crash), sending the update again, the checkout's next write or
 * `npm run admin -- backfill` re-keys what is left.
 */

/** What was renamed: an event or an order form, its new name, and the key of its item (for the name check). */
export interface Rename {
  field: 'event' | 'form';
  id: string;
  name: string;
  key: ItemKey;
}

type Outcome = 'done' | 'superseded';
interface Gone { version: number; gone: true }

const referenceOf = (current: StoredCheckout, field: Rename['field']) => (field === 'event' ? current.record.eventId : current.record.orderFormId);

async function rekeyOne(workspaceId: string, checkoutId: string, rename: Rename): Promise<Outcome> {
  return readModifyWrite<StoredCheckout | Gone, Outcome>({
    resource: 'checkout',
    read: async () => (await findCheckout(workspaceId, checkoutId, { consistent: true })) ?? { version: 0, gone: true },
    write: async (current) => {
      if ('gone' in current || referenceOf(current, rename.field) !== rename.id || current.listNames[rename.field] === rename.name) return 'done';
      try {
        await rekeyCheckout(workspaceId, current, { ...current.listNames, [rename.field]: rename.name }, [{ key: rename.key, name: rename.name }], () => new StaleVersionError('checkout'));
        return 'done';
      } catch (error) {
        if (error instanceof ListNameChangedError) return 'superseded';
        throw error;
      }
    },
  });
}

/**
 * After an event or order form was (perhaps) renamed: re-keys the list projections of the checkouts
 * that reference it and still carry another name. Called on every update that sets the name, so that
 * sending the update again finishes a re-keying a fault interrupted. The rename is stored by then:
 * a failure here is logged, never the request's answer.
 */
export async function followRename(workspaceId: string, rename: Rename): Promise<void> {
  try {
    for (const checkoutId of await checkoutIdsKeyedWithOtherName(workspaceId, rename, rename.name)) {
      if (await rekeyOne(workspaceId, checkoutId, rename) === 'superseded') return;
    }
  } catch (error) {
    logger.warn('Checkouts not re-keyed after a rename; the next update naming it, their next write or the backfill does it', {
      workspaceId, field: rename.field, id: rename.id, error: error as Error,
    });
  }
}
