import { INDEXES, TABLE_KEYS } from '../db/table-design.js';

/**
 * Partners are platform-level (not owned by a workspace): a partner's referral code links the
 * public events of any workspace to the partner's widgets. Created with the admin CLI.
 */
export interface Partner {
  _id: string;
  referral_code: string;
  firstName?: string;
  lastName?: string;
  companyName?: string;
  email?: string;
  username?: string;
  avatar?: string;
  banner?: string;
  instagram?: string;
  linkedin?: string;
  bio?: string;
  tags?: string[];
  createdAt: string;
}

const GSI = INDEXES.byReferralCode;

export const partnerKeys = {
  partner: (partnerId: string) => ({ [TABLE_KEYS.partitionKey]: `PARTNER#${partnerId}`, [TABLE_KEYS.sortKey]: 'PARTNER' }),
  /** Uniqueness guard: one item per referral code, written in the same transaction as the partner. */
  codeGuard: (code: string) => ({ [TABLE_KEYS.partitionKey]: `REFCODE#${code}`, [TABLE_KEYS.sortKey]: 'GUARD' }),
  /** GSI1 partition of everything linked to a referral code; the partner itself sorts under `PARTNER`. */
  byCode: (code: string) => ({ [GSI.partitionKey]: `REFCODE#${code}`, [GSI.sortKey]: 'PARTNER' }),
};
