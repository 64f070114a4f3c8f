import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../shared/contacts/contact-model.js';
import { applyContactPatch, buildContact, changedPropertyValues, contactPropertyIssues, fillEmptyContactFields, propertyIdsToRead } from '../../../shared/contacts/contact-rules.js';
import type { Property } from '../../../shared/properties/property-model.js';
import { aProperty, aSelectProperty } from '../properties/property-factories.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const SIZE = 'aaaaaaaaaaaaaaaaaaaaaaa1';
const AGE = 'aaaaaaaaaaaaaaaaaaaaaaa2';
const SEAT = 'aaaaaaaaaaaaaaaaaaaaaaa3';

const definitions = new Map<string, Property>([
  [SIZE, aSelectProperty('Select One', { id: SIZE })],
  [AGE, aProperty({ id: AGE, type: 'Number', name: 'Age' })],
  [SEAT, aProperty({ id: SEAT, name: 'Seat', objectType: 'ticket' })],
]);

function aContact(overrides: Partial<Contact> = {}): Contact {
  return {
    id: 'bbbbbbbbbbbbbbbbbbbbbbb1', email: 'ada@example.com', properties: {}, version: 1,
    createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...overrides,
  };
}

describe('contactPropertyIssues', () => {
  it('accepts valid values for contact properties and null removals of anything', () => {
    expect(contactPropertyIssues({ [SIZE]: 'm', [AGE]: 30, [SEAT]: null, unknown: null }, definitions)).toEqual([]);
  });

  it.each([
    ['an unknown property', { 'cccccccccccccccccccccccc': 'x' }, 'properties.cccccccccccccccccccccccc'],
    ['a non-contact property', { [SEAT]: 'A1' }, `properties.${SEAT}`],
    ['a value outside the options', { [SIZE]: 'xl' }, `properties.${SIZE}`],
    ['a string for a Number', { [AGE]: '30' }, `properties.${AGE}`],
  ])('reports %s at properties.<id>', (_label, values, path) => {
    expect(contactPropertyIssues(values, definitions)).toEqual([{ path, message: expect.any(String) }]);
  });

  it('reports every invalid value, not only the first', () => {
    expect(contactPropertyIssues({ [SIZE]: 'xl', [AGE]: 'old' }, definitions)).toHaveLength(2);
  });
});

describe('changedPropertyValues', () => {
  it('leaves out values equal to the stored ones (whatever their key order) and keeps changed, new and null ones', () => {
    const stored = { [SIZE]: 'old', [AGE]: 30, [SEAT]: { a: 1, b: [2] } };
    expect(changedPropertyValues({ [SIZE]: 'old', [AGE]: 31, [SEAT]: { b: [2], a: 1 }, other: 'x', gone: null }, stored)).toEqual({ [AGE]: 31, other: 'x', gone: null });
    expect(changedPropertyValues(undefined, stored)).toEqual({});
  });
});

describe('propertyIdsToRead', () => {
  it('skips removals and keys that cannot be ids', () => {
    expect(propertyIdsToRead({ [SIZE]: 'm', [AGE]: null, 'not-an-id': 1 })).toEqual([SIZE]);
  });
});

describe('buildContact', () => {
  it('builds version 1 with only the optional fields given and without null property values', () => {
    const contact = buildContact({ email: 'ada@example.com', firstName: 'Ada', properties: { [SIZE]: 'm', [AGE]: null } }, NOW);
    expect(contact).toEqual({
      id: expect.stringMatching(/^[a-f0-9]{24}$/), email: 'ada@example.com', firstName: 'Ada', properties: { [SIZE]: 'm' },
      version: 1, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(),
    });
  });
});

describe('applyContactPatch', () => {
  it('changes only the fields sent and bumps the version', () => {
    const next = applyContactPatch(aContact({ firstName: 'Ada', version: 3 }), { lastName: 'Lovelace' }, NOW);
    expect(next).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', version: 4, updatedAt: NOW.toISOString() });
  });

  it.each(['firstName', 'lastName', 'phone', 'status', 'defaultPaymentMethod'] as const)('removes %s sent as null', (field) => {
    const current = aContact({ firstName: 'A', lastName: 'B', phone: '1', status: 'opted-in', defaultPaymentMethod: 'pm_card_visa' });
    const next = applyContactPatch(current, { [field]: null }, NOW);
    expect(next).not.toHaveProperty(field);
  });

  it('merges property values and removes those sent as null', () => {
    const next = applyContactPatch(aContact({ properties: { [SIZE]: 's', [AGE]: 30 } }), { properties: { [AGE]: null, [SEAT]: 'x' } }, NOW);
    expect(next?.properties).toEqual({ [SIZE]: 's', [SEAT]: 'x' });
  });

  it('returns undefined when nothing changes, whatever the key order', () => {
    const current = aContact({ firstName: 'Ada', properties: { [SIZE]: 's', [AGE]: 30 } });
    expect(applyContactPatch(current, { firstName: 'Ada', properties: { [AGE]: 30, [SIZE]: 's' } }, NOW)).toBeUndefined();
    expect(applyContactPatch(current, { lastName: null }, NOW)).toBeUndefined();
  });

  it('does not mutate the current contact', () => {
    const current = aContact({ properties: { [SIZE]: 's' } });
    applyContactPatch(current, { properties: { [SIZE]: null } }, NOW);
    expect(current.properties).toEqual({ [SIZE]: 's' });
  });
});

describe('fillEmptyContactFields (anonymous submissions)', () => {
  const everything = { fields: { firstName: 'Mallory', lastName: 'M', phone: '+1555', status: 'unsubscribed' as const }, properties: { [SIZE]: 'xl', [AGE]: 99 } };

  it('changes nothing on a contact whose fields are all filled, status included', () => {
    const current = aContact({ firstName: 'Ada', lastName: 'Lovelace', phone: '+44', status: 'opted-in', properties: { [SIZE]: 's', [AGE]: 36 } });
    expect(fillEmptyContactFields(current, everything, NOW)).toBeUndefined();
  });

  it('fills absent and blank fields and property values, and bumps the version', () => {
    const current = aContact({ firstName: 'Ada', lastName: '  ', properties: { [SIZE]: '' }, version: 2 });
    const next = fillEmptyContactFields(current, everything, NOW);
    expect(next).toMatchObject({ firstName: 'Ada', lastName: 'M', phone: '+1555', properties: { [SIZE]: 'xl', [AGE]: 99 }, version: 3, updatedAt: NOW.toISOString() });
  });

  it('never sets or changes the status, even when the contact has none', () => {
    expect(fillEmptyContactFields(aContact({ status: 'opted-in' }), { fields: { status: 'unsubscribed' }, properties: {} }, NOW)).toBeUndefined();
    expect(fillEmptyContactFields(aContact(), { fields: { status: 'opted-in' }, properties: {} }, NOW)).toBeUndefined();
  });

  it('never empties a field with a blank submitted value', () => {
    const current = aContact({ firstName: 'Ada', properties: { [SIZE]: 's' } });
    expect(fillEmptyContactFields(current, { fields: { firstName: '' }, properties: { [SIZE]: [] } }, NOW)).toBeUndefined();
  });
});
