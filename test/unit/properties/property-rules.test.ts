import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/errors.js';
import { PROPERTY_TYPES, type PropertyOption, type PropertyType } from '../../../shared/properties/property-model.js';
import { applyPropertyPatch, buildProperty, optionIssues } from '../../../shared/properties/property-rules.js';
import { aProperty, aSelectProperty } from './property-factories.js';

const TWO_OPTIONS: PropertyOption[] = [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }];
const NOW = new Date('2026-03-01T12:00:00.000Z');

describe('optionIssues', () => {
  const selectTypes: PropertyType[] = ['Select One', 'Select Multiple'];
  const otherTypes = PROPERTY_TYPES.filter((type) => !selectTypes.includes(type));

  it.each(selectTypes)('accepts unique options on %s', (type) => {
    expect(optionIssues(type, TWO_OPTIONS)).toEqual([]);
  });

  it.each(selectTypes)('requires at least one option on %s', (type) => {
    expect(optionIssues(type, undefined)).toEqual([{ path: 'options', message: expect.any(String) }]);
    expect(optionIssues(type, [])).toEqual([{ path: 'options', message: expect.any(String) }]);
  });

  it.each(otherTypes)('forbids options on %s', (type) => {
    expect(optionIssues(type, TWO_OPTIONS)).toEqual([{ path: 'options', message: expect.any(String) }]);
  });

  it.each(otherTypes)('accepts %s without options', (type) => {
    expect(optionIssues(type, undefined)).toEqual([]);
  });

  it('names every repeated value by its index', () => {
    const options = [{ value: 'a', label: 'A' }, { value: 'a', label: 'A2' }, { value: 'b', label: 'B' }, { value: 'b', label: 'B2' }];
    expect(optionIssues('Select Multiple', options).map((issue) => issue.path)).toEqual(['options[1].value', 'options[3].value']);
  });

  it('treats values as case-sensitive identities', () => {
    expect(optionIssues('Select One', [{ value: 'a', label: 'A' }, { value: 'A', label: 'A' }])).toEqual([]);
  });
});

describe('buildProperty', () => {
  it('builds an active property at version 1 with a time-ordered id', () => {
    const property = buildProperty({ type: 'Select One', name: 'Size', objectType: 'ticket', options: TWO_OPTIONS }, NOW);
    expect(property).toEqual({
      id: expect.stringMatching(/^[a-f0-9]{24}$/), type: 'Select One', name: 'Size', status: 'active', objectType: 'ticket',
      options: TWO_OPTIONS, version: 1, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(),
    });
    expect(property.id.slice(0, 8)).toBe(Math.floor(NOW.getTime() / 1000).toString(16));
  });

  it('throws a ValidationError for options on a Number property', () => {
    expect(() => buildProperty({ type: 'Number', name: 'Age', objectType: 'contact', options: TWO_OPTIONS })).toThrow(ValidationError);
  });
});

describe('applyPropertyPatch', () => {
  it.each([
    ['renames', { name: 'Alias' }, { name: 'Alias' }],
    ['archives', { status: 'archived' as const }, { status: 'archived' }],
    ['sets a description', { description: 'Shown on forms' }, { description: 'Shown on forms' }],
  ])('%s and bumps version and updatedAt', (_label, patch, expected) => {
    const next = applyPropertyPatch(aProperty({ version: 4 }), patch, NOW);
    expect(next).toMatchObject({ ...expected, version: 5, updatedAt: NOW.toISOString() });
  });

  it('restores an archived property', () => {
    expect(applyPropertyPatch(aProperty({ status: 'archived' }), { status: 'active' }, NOW)?.status).toBe('active');
  });

  it('removes the description with null', () => {
    const next = applyPropertyPatch(aProperty({ description: 'old' }), { description: null }, NOW);
    expect(next).toBeDefined();
    expect(next).not.toHaveProperty('description');
  });

  it('returns undefined when nothing changes', () => {
    const current = aSelectProperty('Select One', { description: 'same' });
    expect(applyPropertyPatch(current, { name: current.name, description: 'same', options: current.options }, NOW)).toBeUndefined();
    expect(applyPropertyPatch(current, {}, NOW)).toBeUndefined();
  });

  it('keeps type, objectType, id and createdAt', () => {
    const current = aSelectProperty('Select Multiple', { objectType: 'order' });
    const next = applyPropertyPatch(current, { options: [{ value: 'x', label: 'X' }] }, NOW);
    expect(next).toMatchObject({ id: current.id, type: 'Select Multiple', objectType: 'order', createdAt: current.createdAt });
  });

  it.each([
    ['options on a Text property', aProperty(), { options: TWO_OPTIONS }, 'options'],
    ['empty options on a select property', aSelectProperty(), { options: [] }, 'options'],
    ['a repeated option value', aSelectProperty(), { options: [{ value: 'a', label: 'A' }, { value: 'a', label: 'B' }] }, 'options[1].value'],
  ])('rejects %s', (_label, current, patch, path) => {
    try {
      applyPropertyPatch(current, patch, NOW);
      expect.unreachable('applyPropertyPatch should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details).toContainEqual(expect.objectContaining({ path }));
    }
  });
});
