import { describe, expect, it } from 'vitest';
import { ID_PATTERN, newId } from '../../../shared/ids.js';

/**
 * Ids (API.md "Ids"): 8 hex of creation seconds, then 64 bits from the CSPRNG. Ids minted in one burst
 * in one process (where the former counter made each tail the previous one plus 1) must share no
 * guessable tail.
 */

const BURST = 20_000;
const NOW = new Date('2027-06-01T18:00:00.123Z');
const burst = Array.from({ length: BURST }, () => newId(NOW));
const tails = burst.map((id) => BigInt(`0x${id.slice(8)}`));

describe('newId', () => {
  it('is 24 lowercase hex characters led by the creation second', () => {
    const seconds = Math.floor(NOW.getTime() / 1000).toString(16).padStart(8, '0');
    expect(burst.every((id) => ID_PATTERN.test(id) && id.startsWith(seconds))).toBe(true);
  });

  it('mints no tail twice in a burst', () => {
    expect(new Set(tails).size).toBe(BURST);
  });

  it('leaves no arithmetic relation between consecutive tails: no small step, differences all distinct, about half of them negative', () => {
    const differences = tails.slice(1).map((tail, index) => tail - (tails[index] as bigint));
    // A counter steps by 1; two random 64-bit tails are within 2^32 of each other with odds 2^-31.
    expect(differences.filter((difference) => difference > -(2n ** 32n) && difference < 2n ** 32n)).toEqual([]);
    expect(new Set(differences).size).toBe(differences.length);
    const negative = differences.filter((difference) => difference < 0n).length;
    // Binomial(n, 1/2): 6 standard deviations either side.
    const sd = Math.sqrt(differences.length) / 2;
    expect(Math.abs(negative - differences.length / 2)).toBeLessThan(6 * sd);
  });

  it('shares no bits between the tails of one process: every one of the 64 tail bits is set in about half the ids', () => {
    const sd = Math.sqrt(BURST) / 2;
    for (let bit = 0n; bit < 64n; bit += 1n) {
      const set = tails.filter((tail) => (tail >> bit) & 1n).length;
      expect(Math.abs(set - BURST / 2), `bit ${bit}`).toBeLessThan(6 * sd);
    }
  });

  it('does not carry a fixed per-process part: no tail prefix repeats beyond chance', () => {
    // With 64 random bits, 20,000 tails almost surely have 20,000 distinct leading 24 bits minus a few
    // birthday collisions (expected ~12); a per-process prefix would make them all equal.
    const prefixes = new Set(burst.map((id) => id.slice(8, 14)));
    expect(prefixes.size).toBeGreaterThan(BURST - 100);
  });
});
