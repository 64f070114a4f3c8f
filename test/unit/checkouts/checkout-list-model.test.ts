import { describe, expect, it } from 'vitest';
import { checkoutListKeys, encodeNumber, encodeText, listItemsOf } from '../../../shared/checkouts/checkout-list-model.js';
import { checkoutRecord } from './factories.js';

/** Sorts strings the way DynamoDB sorts keys: by UTF-8 bytes. */
const keyOrder = (values: string[]) => [...values].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
const byText = (names: string[]) => keyOrder(names.map((name) => `${encodeText(name)}\u0001${name}`)).map((key) => key.split('\u0001')[1]);

describe('encodeText', () => {
  it('orders case-insensitively and numbers by value', () => {
    expect(byText(['b10', 'B9', 'a'])).toEqual(['a', 'B9', 'b10']);
    expect(byText(['Event 10', 'event 9', 'Event 009x', 'Event 1'])).toEqual(['Event 1', 'event 9', 'Event 009x', 'Event 10']);
  });

  it('ignores accents and puts a name before the longer names it starts', () => {
    expect(byText(['échelle', 'Echo', 'ecart'])).toEqual(['ecart', 'échelle', 'Echo']);
    expect(byText(['alpha beta', 'alpha', 'Alpha-Z'])).toEqual(['alpha', 'alpha beta', 'Alpha-Z']);
  });

  it('folds whitespace runs and keeps keys short', () => {
    expect(encodeText('  A \t\n b  ')).toBe('a b');
    expect(Array.from(encodeText('x'.repeat(5_000)))).toHaveLength(200);
  });
});

describe('encodeNumber', () => {
  it('pads to 15 digits so that byte order is numeric order, clamped to the key space', () => {
    expect(keyOrder([encodeNumber(10), encodeNumber(9), encodeNumber(100)])).toEqual([encodeNumber(9), encodeNumber(10), encodeNumber(100)]);
    expect(encodeNumber(-5)).toBe('0'.repeat(15));
    expect(encodeNumber(1e20)).toBe('9'.repeat(15));
  });
});

describe('listItemsOf', () => {
  it('lists a checkout in the ALL and cell scopes under every sort field, plus its event, timeslot and form', () => {
    const record = checkoutRecord({ status: 'closed', visibility: 'public', eventId: 'e'.repeat(24), timeslotId: 'slot-1', orderFormId: 'f'.repeat(24), description: 'Desc' });
    const items = listItemsOf('w', record, { event: 'Gala', form: 'Buyer' });
    expect(items).toHaveLength(10 * 4 + 1);
    const partitions = new Set(items.map((item) => item.PK));
    expect(partitions).toContain('WS#w#CHECKOUTS#LIST#name#V#ALL');
    expect(partitions).toContain('WS#w#CHECKOUTS#LIST#status#V#CELL#closed#public#E');
    expect(partitions).toContain(`WS#w#CHECKOUTS#LIST#event#V#EVENT#${'e'.repeat(24)}`);
    expect(partitions).toContain('WS#w#CHECKOUTS#LIST#createdAt#V#SLOT#slot-1');
    expect(partitions).toContain(`WS#w#CHECKOUTS#BY_FORM#${'f'.repeat(24)}`);
  });

  it('keeps name and description only on the ALL scope, for search', () => {
    const items = listItemsOf('w', checkoutRecord({ name: 'Gala', description: 'Black tie' }), {});
    const all = items.filter((item) => String(item.PK).endsWith('#ALL'));
    expect(all.every((item) => item.name === 'Gala' && item.description === 'Black tie')).toBe(true);
    expect(items.filter((item) => !String(item.PK).endsWith('#ALL')).some((item) => 'name' in item)).toBe(false);
  });

  it('files a checkout without a description, event or form under the none segment of those sorts', () => {
    const record = checkoutRecord();
    const items = listItemsOf('w', record, {});
    const none = items.filter((item) => String(item.PK).includes('#N#ALL')).map((item) => item.PK);
    expect(none.sort()).toEqual(['WS#w#CHECKOUTS#LIST#description#N#ALL', 'WS#w#CHECKOUTS#LIST#event#N#ALL', 'WS#w#CHECKOUTS#LIST#form#N#ALL']);
    expect(items.find((item) => item.PK === 'WS#w#CHECKOUTS#LIST#event#N#ALL')?.SK).toBe(`\u0001${record.id}`);
  });

  it('keys sorts by the value then the id', () => {
    const record = checkoutRecord({ products: [{ productId: 'p', visibility: 'visible', dependents: [] }] });
    const item = listItemsOf('w', record, {}).find((entry) => entry.PK === 'WS#w#CHECKOUTS#LIST#productsCount#V#ALL');
    expect(item?.SK).toBe(`${encodeNumber(1)}\u0001${record.id}`);
  });
});

describe('checkoutListKeys.otherNameRanges', () => {
  /** Whether a sort key falls in a `lt` / `gte` range, compared as DynamoDB does (UTF-8 bytes). */
  const inRange = (key: string, range: { lt?: string; gte?: string }) =>
    range.lt !== undefined ? Buffer.compare(Buffer.from(key), Buffer.from(range.lt)) < 0 : Buffer.compare(Buffer.from(key), Buffer.from(range.gte as string)) >= 0;
  const stale = (name: string, keyedWith: string, id: string) =>
    checkoutListKeys.otherNameRanges(name).some((range) => inRange(checkoutListKeys.sortKey(encodeText(keyedWith), id), range));

  it('selects the entries keyed with any other name, below and above it, and none keyed with the name', () => {
    const ids = ['0'.repeat(24), 'f'.repeat(24), '65a1b2c3d4e5f60718293a4b'];
    for (const id of ids) {
      expect(stale('Mango', 'Mango', id), id).toBe(false);
      expect(stale('Mango', 'Apricot', id), id).toBe(true);
      expect(stale('Mango', 'Zucchini', id), id).toBe(true);
      // Names that start with the name, or that it starts with, are other names.
      expect(stale('Mango', 'Mango 2', id), id).toBe(true);
      expect(stale('Mango', 'Man', id), id).toBe(true);
    }
  });

  it('treats names that key the same (case, accents) as the same name', () => {
    expect(stale('Crème', 'CREME', 'a'.repeat(24))).toBe(false);
  });
});
