import * as z from 'zod';
import { LIST_ORDER_INDEXES, entityAttribute, indexKey, itemKey, withoutKeys, type ItemKey } from '../db/table-design.js';
import { lazy } from '../model/lazy-schema.js';

/**
 * The partner model. Partners are platform-level (not owned by a workspace): a partner's referral
 * code links the public events of any workspace to the partner's widgets. Created with the admin CLI.
 */

/** The spec's Owner object: the partner's public profile (absent fields are omitted). */
export const ownerSchema = lazy(() => z
  .object({
    _id: z.string(),
    referral_code: z.string(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    companyName: z.string().optional(),
    email: z.string().optional(),
    username: z.string().optional(),
    avatar: z.string().optional().meta({ description: 'Media URL.' }),
    banner: z.string().optional().meta({ description: 'Media URL.' }),
    instagram: z.string().optional(),
    linkedin: z.string().optional(),
    bio: z.string().optional(),
    tags: z.array(z.string()).optional(),
  })
  .meta({ id: 'Owner', description: 'The partner behind the referral code; absent profile fields are omitted.' }));

export type Owner = z.infer<typeof ownerSchema>;

/** A stored partner: the public profile plus when it was created. */
export type Partner = Owner & { createdAt: string };

/** What the admin command gives to create a partner (the id and timestamp are minted). */
export type NewPartner = Omit<Partner, '_id' | 'createdAt'>;

export const PARTNER_ENTITY = 'Partner';
export const REFERRAL_CODE_GUARD_ENTITY = 'ReferralCodeGuard';

/** The partner's row in the GSI1 partition of its code, beside the events it lists. */
const PARTNER_SORT = 'PARTNER';

/**
 * Keys. Everything linked to a referral code shares the GSI1 (byReferralCode) partition
 * `REFCODE#<code>`: the partner itself sorts under `PARTNER`, its listed events under prefixes of
 * their own (`event-listing-model.ts`).
 */
export const partnerKeys = {
  partner: (partnerId: string): ItemKey => itemKey(`PARTNER#${partnerId}`, 'PARTNER'),
  /** Uniqueness guard: one item per referral code, written in the same transaction as the partner. */
  codeGuard: (code: string): ItemKey => itemKey(`REFCODE#${code}`, 'GUARD'),
  /** The GSI1 partition of everything linked to a referral code. */
  codePartition: (code: string) => `REFCODE#${code}`,
  /** Where the partner sorts in its code's partition: `findPartnerByCode` reads exactly this. */
  partnerSort: PARTNER_SORT,
  /** The operators' directory of partners (admin `partner list`): one partition, newest first. */
  directory: 'DIRECTORY#PARTNERS',
};

/** The index attributes that list a partner in the directory (also written by the backfill). */
export function partnerDirectoryEntry(partner: Pick<Partner, '_id' | 'createdAt'>): Record<string, string> {
  return indexKey(LIST_ORDER_INDEXES.directory, partnerKeys.directory, `${partner.createdAt}#${partner._id}`);
}

export function toPartnerItem(partner: Partner): Record<string, unknown> {
  return {
    ...partnerKeys.partner(partner._id),
    ...indexKey('byReferralCode', partnerKeys.codePartition(partner.referral_code), PARTNER_SORT),
    ...partnerDirectoryEntry(partner),
    ...entityAttribute(PARTNER_ENTITY),
    ...partner,
  };
}

export function toCodeGuardItem(partner: Partner): Record<string, unknown> {
  return { ...partnerKeys.codeGuard(partner.referral_code), ...entityAttribute(REFERRAL_CODE_GUARD_ENTITY), partnerId: partner._id };
}

export function fromPartnerItem(item: Record<string, unknown>): Partner {
  return withoutKeys(item) as unknown as Partner;
}

/** The Owner object built from a partner (absent profile fields stay absent). */
export function toOwner(partner: Partner): Owner {
  const { createdAt: _createdAt, ...owner } = partner;
  return owner;
}
