import { describe, expect, it } from 'vitest';
import { PartnerQueryError, ReferralCodeRequiredError } from '../../../shared/partners/partner-errors.js';
import { parsePartnerQuery, planPartnerQuery, type PartnerListingQuery } from '../../../shared/partners/partner-listing-plan.js';

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

  it('clamps limit above 100 and refuses limit 0', () => {
    expect(parsePartnerQuery({ referral_code: 'P1', limit: '1000' }).limit).toBe(100);
    expect(() => parsePartnerQuery({ referral_code: 'P1', limit: '0' })).toThrow(PartnerQueryError);
  });

  it.each([['page', '-1'], ['page', '1.5'], ['limit', 'ten'], ['sort', 'name'], ['direction', 'ASC'], ['filter', 'soon']])('refuses %s=%s', (key, value) => {
    expect(() => parsePartnerQuery({ referral_code: 'P1', [key]: value })).toThrow(PartnerQueryError);
  });

  it('treats empty values as absent', () => {
    expect(parsePartnerQuery({ referral_code: 'P1', page: '', limit: '', sort: '' })).toEqual(query());
  });

  it('refuses pages deeper than 10000 events', () => {
    expect(() => parsePartnerQuery({ referral_code: 'P1', page: '100', limit: '100' })).toThrow(PartnerQueryError);
    expect(parsePartnerQuery({ referral_code: 'P1', page: '99', limit: '100' }).page).toBe(99);
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

describe('planPartnerQuery', () => {
  it('reads a sort prefix of the referral code partition without a filter for filter=all', () => {
    for (const [sort, prefix] of [['start', 'EVSTART#'], ['end', 'EVEND#'], ['createdAt', 'EVCREATED#']] as const) {
      const plan = planPartnerQuery(query({ sort }), 'REFCODE#P1', NOW);
      expect(plan.keyCondition).toBe('#pk = :pk AND begins_with(#sk, :prefix)');
      expect(plan.values).toEqual({ ':pk': 'REFCODE#P1', ':prefix': prefix });
      expect(plan.filterExpression).toBeUndefined();
    }
  });

  it('turns upcoming and past into key ranges on end when sorted by end', () => {
    const upcoming = planPartnerQuery(query({ sort: 'end', filter: 'upcoming' }), 'REFCODE#P1', NOW);
    const past = planPartnerQuery(query({ sort: 'end', filter: 'past', direction: 'desc' }), 'REFCODE#P1', NOW);
    expect(upcoming.values).toMatchObject({ ':lo': `EVEND#${NOW_KEY}#~`, ':hi': 'EVEND#~' });
    expect(past.values).toMatchObject({ ':lo': 'EVEND#', ':hi': `EVEND#${NOW_KEY}#~` });
    expect(upcoming.filterExpression).toBeUndefined();
    expect(past.scanIndexForward).toBe(false);
  });

  it('reads the upcoming-only projections for upcoming by start or createdAt', () => {
    const byStart = planPartnerQuery(query({ filter: 'upcoming' }), 'REFCODE#P1', NOW);
    const byCreated = planPartnerQuery(query({ sort: 'createdAt', filter: 'upcoming' }), 'REFCODE#P1', NOW);
    expect(byStart.values[':prefix']).toBe('UPSTART#');
    expect(byCreated.values[':prefix']).toBe('UPCREATED#');
    expect(byStart.filterExpression).toBe('#end > :now');
    expect(byStart.filterMostlyMatches).toBe(true);
  });

  it('bounds past by start to events that started already', () => {
    const plan = planPartnerQuery(query({ filter: 'past' }), 'REFCODE#P1', NOW);
    expect(plan.values).toMatchObject({ ':lo': 'EVSTART#', ':hi': `EVSTART#${NOW_KEY}#~`, ':now': NOW_KEY });
    expect(plan.filterExpression).toBe('#end <= :now');
  });

  it('adds one equality filter per metaData pair and reads in batches then', () => {
    const plan = planPartnerQuery(query({ metaData: { city: 'Montreal', 'a.b': 'x' } }), 'REFCODE#P1', NOW);
    expect(plan.filterExpression).toBe('#md.#m0 = :m0 AND #md.#m1 = :m1');
    expect(plan.names).toMatchObject({ '#md': 'metaData', '#m0': 'city', '#m1': 'a.b' });
    expect(plan.values).toMatchObject({ ':m0': 'Montreal', ':m1': 'x' });
    expect(plan.filterMostlyMatches).toBe(false);
  });
});
