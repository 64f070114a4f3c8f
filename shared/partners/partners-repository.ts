import { queryFirst } from '../db/query.js';
import { notExists } from '../db/table-design.js';
import { transaction } from '../db/transaction.js';
import { ConflictError } from '../errors.js';
import { newId } from '../ids.js';
import { fromPartnerItem, partnerKeys, toCodeGuardItem, toPartnerItem, type NewPartner, type Partner } from './partner-model.js';

export type { NewPartner } from './partner-model.js';

/** Creates a partner; the referral code is unique (guard item in the same transaction). */
export async function createPartner(input: NewPartner): Promise<Partner> {
  const partner: Partner = { ...input, _id: newId(), createdAt: new Date().toISOString() };
  await transaction()
    .put(toCodeGuardItem(partner), { ...notExists(), onFailed: () => new ConflictError(`A partner with referral code ${partner.referral_code} already exists.`) })
    .put(toPartnerItem(partner), notExists())
    .commit();
  return partner;
}

/** Looks a partner up by referral code: one Query on GSI1, one item. */
export async function findPartnerByCode(code: string): Promise<Partner | undefined> {
  const [item] = await queryFirst({ index: 'byReferralCode', partition: partnerKeys.codePartition(code), range: { between: [partnerKeys.partnerSort, partnerKeys.partnerSort] } }, 1);
  return item ? fromPartnerItem(item) : undefined;
}
