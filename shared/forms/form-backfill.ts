import { BackfillRaceError, changesAttributes, setAttributes, type BackfillStep } from '../db/backfill.js';
import { versionIs } from '../db/conditional.js';
import { transaction } from '../db/transaction.js';
import { FORM_ENTITY, formKeys, fromFormItem, orderKeys, projectionChanges } from './form-model.js';

/**
 * The status projection of forms written before it existed, and the name order of forms written
 * before names and ids were separated by NUL: a put of the projection the form has now, and the form's
 * own order keys when they differ, checked against the form's version in the same transaction, so a
 * change made since the scan read the form (which wrote its own) is never overwritten with a stale one.
 */
export const formStatusBackfill: BackfillStep = {
  name: 'form status projections (status filter in every sort) and name order',
  entity: FORM_ENTITY,
  async rebuild(item) {
    const form = fromFormItem(item);
    const workspaceId = form.ownerId;
    const { puts } = projectionChanges(workspaceId, undefined, form);
    const order = orderKeys(workspaceId, undefined, form);
    const race = { ...versionIs(form.version, 'form'), onFailed: () => new BackfillRaceError() };
    const reorder = changesAttributes(item, order);
    const tx = reorder ? transaction().update(setAttributes(item, order, race)) : transaction().check(formKeys.form(workspaceId, form.id), race);
    for (const projection of puts) tx.put(projection);
    await tx.commit();
    return puts.length + (reorder ? 1 : 0);
  },
};
