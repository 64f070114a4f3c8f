import { search as jmespathSearch } from '@aws-lambda-powertools/jmespath';
import { PowertoolsFunctions as RealFunctions } from '@aws-lambda-powertools/jmespath/functions';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { search } from '../../../shared/aws/jmespath-field-names/index.js';
import { PowertoolsFunctions } from '../../../shared/aws/jmespath-field-names/functions.js';

const fieldName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/)
  // The real interpreter throws on names an empty object inherits (`toString`, ...): not ours to copy.
  .filter((name) => !(name in {}));
const json = fc.jsonValue();

describe('the JMESPath stand-in of the bundles (bare field names)', () => {
  it('selects what Powertools\' interpreter selects, for any field name and any JSON data', () => {
    const holding = (name: string) => fc.tuple(fc.dictionary(fieldName, json), json).map(([object, value]) => ({ ...object, [name]: value }));
    const anyData = (name: string) => fc.oneof(json, fc.dictionary(fieldName, json), holding(name));
    fc.assert(fc.property(fieldName.chain((name) => fc.tuple(fc.constant(name), anyData(name))), ([name, data]) => {
      expect(search(name, data)).toEqual(jmespathSearch(name, data as never));
    }), { numRuns: 500 });
  });

  it('reads the idempotency payload as Powertools does: the key and the fingerprint', () => {
    const payload = { id: 'ws#createForm#key-1', fingerprint: 'sha256:abc' };
    expect(search('id', payload)).toBe(jmespathSearch('id', payload));
    expect(search('fingerprint', payload)).toBe('sha256:abc');
    expect(search('id', { fingerprint: 'x' })).toBeNull();
  });

  it.each(['id.hash', '"id"', '[0]', 'powertools_json(body).id', 'a || b', '', ' id'])(
    'refuses the richer expression %j instead of keying records differently',
    (expression) => {
      expect(() => search(expression, { id: 'x' })).toThrow(/bare field names only/);
    },
  );

  it('offers the custom-functions class Powertools instantiates by default', () => {
    expect(new PowertoolsFunctions()).toBeInstanceOf(PowertoolsFunctions);
    expect(PowertoolsFunctions.name).toBe(RealFunctions.name);
  });
});
