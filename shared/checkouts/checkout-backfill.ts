import { BackfillRaceError, type BackfillStep } from '../db/backfill.js';
import { readModifyWrite } from '../db/read-modify-write.js';
import { getEventsByIds } from '../events/events-repository.js';
import { getFormNames } from '../forms/form-summaries.js';
import { CHECKOUT_ENTITIES, LIST_NAMES_ATTRIBUTE, fromCheckoutItem, type CheckoutRecord, type ListNames } from './checkout-model.js';
import { nameChecksOf } from './checkout-name-checks.js';
import { ListNameChangedError, rekeyCheckout } from './checkouts-repository.js';

/** The current names of a checkout's event and order form (what its projections must be keyed with). */
async function currentNames(workspaceId: string, record: CheckoutRecord): Promise<ListNames> {
  const [events, forms] = await Promise.all([
    record.eventId !== undefined ? getEventsByIds(workspaceId, [record.eventId]) : new Map<string, { name: string }>(),
    record.orderFormId !== undefined ? getFormNames(workspaceId, [record.orderFormId]) : new Map<string, string>(),
  ]);
  const event = record.eventId !== undefined ? events.get(record.eventId)?.name : undefined;
  const form = record.orderFormId !== undefined ? forms.get(record.orderFormId) : undefined;
  return { ...(event !== undefined ? { event } : {}), ...(form !== undefined ? { form } : {}) };
}

const sameNames = (a: ListNames, b: ListNames) => a.event === b.event && a.form === b.form;

/**
 * The checkout list projections (every sort x scope) and by-form pointers of one stored checkout.
 * A checkout written before they existed has no `listNames`: it gains every projection, keyed with
 * the current names of its event and form. One written since, whose names are still current, is
 * left alone (a second run writes nothing); one whose event or form was renamed without its
 * projections following (a rename interrupted half-way) is re-keyed. Each write is checked against the
 * version the scan read (BackfillRaceError when the checkout changed since: that change wrote its own
 * projections) and against the names it used (read again if a rename lands in between).
 */
export const checkoutListBackfill: BackfillStep = {
  name: 'checkout list projections (each sort x scope) and by-form pointers',
  entity: CHECKOUT_ENTITIES.live,
  async rebuild(item) {
    const stored = fromCheckoutItem(item);
    const workspaceId = stored.record.ownerId;
    const indexed = LIST_NAMES_ATTRIBUTE in item;
    return readModifyWrite({
      resource: 'checkout',
      read: async () => stored,
      write: async (current) => {
        const names = await currentNames(workspaceId, current.record);
        if (indexed && sameNames(names, current.listNames)) return 0;
        return rekeyCheckout(workspaceId, current, names, nameChecksOf(workspaceId, current.record, names), () => new BackfillRaceError());
      },
      retryOn: (error) => error instanceof ListNameChangedError,
    });
  },
};
