import { BackfillRaceError, type BackfillStep } from '../db/backfill.js';
import { versionIs } from '../db/conditional.js';
import { transaction } from '../db/transaction.js';
import { FORM_ENTITY, formKeys, fromFormItem, projectionChanges } from './form-model.js';

/**
 * The status projection of forms written before it existed (the form items themselves always had
 * their name and update orders): a put of the projection the form has now, checked against the
 * form's version in the same transaction, so a change made since the scan read the form (which wrote
 * its own projection) is never overwritten with a stale one. A second run changes nothing.
 */
export const formStatusBackfill: BackfillStep = {
  name: 'form status projections (status filter in every sort)',
  entity: FORM_ENTITY,
  async rebuild(item) {
    const form = fromFormItem(item);
    const workspaceId = form.ownerId;
    const { puts } = projectionChanges(workspaceId, undefined, form);
    const tx = transaction().check(formKeys.form(workspaceId, form.id), { ...versionIs(form.version, 'form'), onFailed: () => new BackfillRaceError() });
    for (const projection of puts) tx.put(projection);
    await tx.commit();
    return puts.length;
  },
};
