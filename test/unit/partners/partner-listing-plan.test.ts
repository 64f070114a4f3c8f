import { describe, expect, it } from 'vitest';
import { PartnerQueryError, ReferralCodeRequiredError } from '../../../shared/partners/partner-errors.js';
import { parsePartnerQuery, planPartnerListing, type PartnerListingQuery } from '../../../shared/partners/partner-listing-plan.js';
import { anEvent } from '../events/event-factories.js';

const NOW = new Date('2030-01-01T12:00:00Z');
const NOW_KEY = '2030-01-01T12:00:00.000Z';

function query(overrides: Partial<PartnerListingQuery> = {}): PartnerListingQuery {
  return { referralCode: 'P1', page: 0, limit: 20, sort: 'start', direction: 'asc', filter: 'all', metaData: {}, ...overrides };
}

describe('parsePartnerQuery', () => {
  it('applies the spec defaults', () => {
    expect(parsePartnerQuery({ referral_code: 'P1' })).toEqual(query());
  });

  it('requires a non-empty referral code before looking at anything else', () => {
    expect(() => parsePartnerQuery({})).toThrow(ReferralCodeRequiredError);
    expect(() => parsePartnerQuery({ referral_code: '  ', limit: 'abc' })).toThrow(ReferralCodeRequiredError);
  });

  it('clamps limit above 100, however many digits it has, and refuses limit 0', () => {
    expect(parsePartnerQuery({ referral_code: 'P1', limit: '1000' }).limit).toBe(100);
    expect(parsePartnerQuery({ referral_code: 'P1', limit: '99999999999999999999' }).limit).toBe(100);
    expect(parsePartnerQuery({ referral_code: 'P1', limit: '0000000000000000000042' }).limit).toBe(42);
    expect(() => parsePartnerQuery({ referral_code: 'P1', limit: '0' })).toThrow(PartnerQueryError);
  });

  it.each([['page', '-1'], ['page', '1.5'], ['limit', 'ten'], ['sort', 'name'], ['direction', 'ASC'], ['filter', 'soon']])('refuses %s=%s', (key, value) => {
    expect(() => parsePartnerQuery({ referral_code: 'P1', [key]: value })).toThrow(PartnerQueryError);
  });

  it.each(['page', 'limit', 'sort', 'direction', 'filter', 'cursor'])('refuses an empty %s, naming it', (name) => {
    expect(() => parsePartnerQuery({ referral_code: 'P1', [name]: '' })).toThrow(new PartnerQueryError({ path: name, message: 'must not be empty; leave the parameter out instead' }));
  });

  it('says what limit takes whatever is wrong with it (negative, not a number, zero)', () => {
    for (const limit of ['-1', 'ten', '0']) {
      expect(() => parsePartnerQuery({ referral_code: 'P1', limit }), limit).toThrow(expect.objectContaining({ message: expect.stringMatching(/limit: must be (an integer of )?at least 1/) }));
    }
  });

  it('takes an empty metaData value as a filter on the empty value (events may store one)', () => {
    expect(parsePartnerQuery({ referral_code: 'P1', city: '' }).metaData).toEqual({ city: '' });
  });

  it('answers an empty referral code with REFERRAL_CODE_REQUIRED, before an empty parameter', () => {
    expect(() => parsePartnerQuery({ referral_code: '', page: '' })).toThrow(ReferralCodeRequiredError);
  });

  it('refuses page numbers 10000 events deep, naming cursor, and a cursor with a page', () => {
    expect(() => parsePartnerQuery({ referral_code: 'P1', page: '100', limit: '100' })).toThrow(/cursor/);
    expect(() => parsePartnerQuery({ referral_code: 'P1', page: '1', cursor: 'abc' })).toThrow(PartnerQueryError);
    expect(parsePartnerQuery({ referral_code: 'P1', page: '99', limit: '100' }).page).toBe(99);
    expect(parsePartnerQuery({ referral_code: 'P1', cursor: 'abc' })).toMatchObject({ cursor: 'abc', metaData: {} });
  });

  it('turns every other key into a metaData filter', () => {
    expect(parsePartnerQuery({ referral_code: 'P1', city: 'Montreal', tier: 'gold', sort: 'end' }).metaData).toEqual({ city: 'Montreal', tier: 'gold' });
  });

  it('keeps a __proto__ key as a metaData filter instead of dropping it', () => {
    // Prepare
    const raw = JSON.parse('{"referral_code":"P1","__proto__":"x"}') as Record<string, string>;
    // Act
    const query = parsePartnerQuery(raw);
    // Assess
    expect(Object.entries(query.metaData)).toEqual([['__proto__', 'x']]);
  });
});

describe('planPartnerListing', () => {
  const copies = (plan: ReturnType<typeof planPartnerListing>) => ('copies' in plan.source ? plan.source.copies : undefined);
  const entries = (plan: ReturnType<typeof planPartnerListing>) => ('entries' in plan.source ? plan.source.entries : []);

  it('reads one sort prefix of the code partition for filter=all', () => {
    for (const [sort, prefix] of [['start', 'EVSTART#'], ['end', 'EVEND#'], ['createdAt', 'EVCREATED#']] as const) {
      expect(copies(planPartnerListing(query({ sort }), NOW))).toEqual({ index: 'byReferralCode', partition: 'REFCODE#P1', range: { beginsWith: prefix }, ascending: true });
    }
  });

  it('turns upcoming and past into key ranges on end when sorted by end', () => {
    const upcoming = copies(planPartnerListing(query({ sort: 'end', filter: 'upcoming' }), NOW));
    const past = copies(planPartnerListing(query({ sort: 'end', filter: 'past', direction: 'desc' }), NOW));
    expect(upcoming?.range).toEqual({ between: [`EVEND#${NOW_KEY}#~`, 'EVEND#~'] });
    expect(past?.range).toEqual({ between: ['EVEND#', `EVEND#${NOW_KEY}#~`] });
    expect(past?.ascending).toBe(false);
  });

  it('reads the state copies for upcoming and past by start or createdAt', () => {
    expect(copies(planPartnerListing(query({ filter: 'upcoming' }), NOW))?.range).toEqual({ beginsWith: 'UPCOMING#START#' });
    expect(copies(planPartnerListing(query({ filter: 'past' }), NOW))?.range).toEqual({ beginsWith: 'PAST#START#' });
    expect(copies(planPartnerListing(query({ sort: 'createdAt', filter: 'upcoming' }), NOW))?.range).toEqual({ beginsWith: 'UPCOMING#CREATED#' });
    expect(copies(planPartnerListing(query({ sort: 'createdAt', filter: 'past' }), NOW))?.range).toEqual({ beginsWith: 'PAST#CREATED#' });
  });

  it('reads the first metaData filter\'s entries: by end from the table, by start and createdAt from the state partitions', () => {
    const byEnd = entries(planPartnerListing(query({ sort: 'end', filter: 'upcoming', metaData: { city: 'Montreal', tier: 'gold' } }), NOW));
    const byStart = entries(planPartnerListing(query({ filter: 'past', metaData: { city: 'Montreal' } }), NOW));
    const allByCreated = entries(planPartnerListing(query({ sort: 'createdAt', metaData: { city: 'Montreal' } }), NOW));
    expect(byEnd).toHaveLength(1);
    expect(byEnd[0]).toMatchObject({ partition: expect.stringMatching(/^REFCODE#P1#META#[\w-]{32}$/), range: { gt: `${NOW_KEY}#~` } });
    expect(byEnd[0]?.index).toBeUndefined();
    expect(byStart).toEqual([expect.objectContaining({ index: 'byReferralCode', partition: expect.stringMatching(/#PAST$/) })]);
    expect(allByCreated.map((entry) => [entry.index, entry.partition.split('#').at(-1)])).toEqual([['byEventBalance', 'UPCOMING'], ['byEventBalance', 'PAST']]);
    // The pair chooses the partition: another value is another partition.
    const other = entries(planPartnerListing(query({ sort: 'end', metaData: { city: 'Toronto' } }), NOW));
    expect(other[0]?.partition).not.toBe(entries(planPartnerListing(query({ sort: 'end', metaData: { city: 'Montreal' } }), NOW))[0]?.partition);
  });

  it('reads the entries of the driver filter it is given, and checks the others', () => {
    const metaData = { city: 'Montreal', tier: 'gold' };
    const byCity = entries(planPartnerListing(query({ sort: 'end', metaData }), NOW));
    const byTier = entries(planPartnerListing(query({ sort: 'end', metaData }), NOW, 'tier'));
    expect(byTier[0]?.partition).toBe(entries(planPartnerListing(query({ sort: 'end', metaData: { tier: 'gold' } }), NOW))[0]?.partition);
    expect(byTier[0]?.partition).not.toBe(byCity[0]?.partition);
    const listed = anEvent({ status: 'published', visibility: 'public', referral_code: 'P1', metaData: { city: 'Toronto', tier: 'gold' } });
    expect(planPartnerListing(query({ metaData }), NOW, 'tier').keeps(listed)).toBe(false);
  });

  it('keeps listed events of the code whose every metaData pair matches and whose state is the filter\'s', () => {
    const listed = anEvent({ status: 'published', visibility: 'public', referral_code: 'P1', metaData: { city: 'Montreal', tier: 'gold' } });
    const keeps = (overrides: Partial<PartnerListingQuery>, event = listed) => planPartnerListing(query(overrides), NOW).keeps(event);
    expect(keeps({ metaData: { city: 'Montreal', tier: 'gold' }, filter: 'upcoming' })).toBe(true);
    expect(keeps({ metaData: { city: 'Montreal', tier: 'silver' } })).toBe(false);
    expect(keeps({ filter: 'past' })).toBe(false);
    expect(keeps({ referralCode: 'P2' })).toBe(false);
    expect(keeps({}, { ...listed, visibility: 'private' })).toBe(false);
    expect(keeps({ metaData: { toString: 'x' } })).toBe(false);
  });
});
