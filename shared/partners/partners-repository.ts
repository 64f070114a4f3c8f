import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { INDEXES, TABLE_KEYS } from '../db/table-design.js';
import { ConflictError } from '../errors.js';
import { newId } from '../ids.js';
import { partnerKeys, type Partner } from './partner-entity.js';

export type NewPartner = Omit<Partner, '_id' | 'createdAt'>;

/** Creates a partner; the referral code is unique (guard item in the same transaction). */
export async function createPartner(input: NewPartner): Promise<Partner> {
  const partner: Partner = { ...input, _id: newId(), createdAt: new Date().toISOString() };
  try {
    await db.send(new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { ...partnerKeys.codeGuard(partner.referral_code), [TABLE_KEYS.entityType]: 'ReferralCodeGuard', partnerId: partner._id },
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': TABLE_KEYS.partitionKey },
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...partnerKeys.partner(partner._id), ...partnerKeys.byCode(partner.referral_code), [TABLE_KEYS.entityType]: 'Partner', ...partner },
          },
        },
      ],
    }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      throw new ConflictError(`A partner with referral code ${partner.referral_code} already exists.`);
    }
    throw error;
  }
  return partner;
}

/** Looks a partner up by referral code: one Query on GSI1, one item. */
export async function findPartnerByCode(code: string): Promise<Partner | undefined> {
  const index = INDEXES.byReferralCode;
  const { Items } = await db.send(new QueryCommand({
    TableName: tableName(),
    IndexName: index.indexName,
    KeyConditionExpression: '#pk = :pk AND #sk = :sk',
    ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
    ExpressionAttributeValues: { ':pk': `REFCODE#${code}`, ':sk': 'PARTNER' },
    Limit: 1,
  }));
  const item = Items?.[0];
  if (!item) return undefined;
  const { [TABLE_KEYS.partitionKey]: _pk, [TABLE_KEYS.sortKey]: _sk, [TABLE_KEYS.entityType]: _e,
    [index.partitionKey]: _gpk, [index.sortKey]: _gsk, ...partner } = item;
  return partner as Partner;
}
