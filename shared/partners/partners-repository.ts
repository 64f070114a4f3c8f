import { getItem } from '../db/conditional.js';
import { queryFirst, queryPage, type Page, type PageRequest } from '../db/query.js';
import { LIST_ORDER_INDEXES, notExists } from '../db/table-design.js';
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

/** The platform's partners, newest first (admin CLI): one Query per page on the directory partition. */
export async function listPartners(request: PageRequest): Promise<Page<Partner>> {
  const page = await queryPage({ index: LIST_ORDER_INDEXES.directory, partition: partnerKeys.directory, ascending: false }, request, { owner: 'platform', list: 'partners' });
  return { ...page, items: page.items.map(fromPartnerItem) };
}

/**
 * Whether a partner holds this referral code: one GetItem of the code's guard item (a key read,
 * projected to one attribute), the reference check of an event's `referral_code`.
 */
export async function referralCodeExists(code: string): Promise<boolean> {
  return (await getItem(partnerKeys.codeGuard(code), { attributes: ['partnerId'] })) !== undefined;
}
