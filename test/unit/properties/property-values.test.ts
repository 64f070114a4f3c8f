import { describe, expect, it } from 'vitest';
import type { PropertyType } from '../../../shared/properties/property-model.js';
import { isCalendarDate, validatePropertyValue } from '../../../shared/properties/property-values.js';
import { aProperty, aSelectProperty } from './property-factories.js';

function propertyOf(type: PropertyType) {
  return type === 'Select One' || type === 'Select Multiple' ? aSelectProperty(type) : aProperty({ type });
}

describe('validatePropertyValue', () => {
  it.each<[PropertyType, unknown]>([
    ['Text', 'hello'],
    ['Text', ''],
    ['Multi-line Text', 'line one\nline two'],
    ['Email', 'ada@example.com'],
    ['Phone', '+44 20 7946 0000'],
    ['Number', 42],
    ['Number', -0.5],
    ['Yes/No', true],
    ['Yes/No', false],
    ['Date', '2024-02-29'],
    ['Select One', 'm'],
    ['Select Multiple', ['s', 'm']],
    ['Select Multiple', []],
    ['File', 'https://files.example.com/cv.pdf'],
  ])('accepts %s value %j', (type, value) => {
    expect(validatePropertyValue(propertyOf(type), value)).toBeUndefined();
  });

  it.each<[PropertyType, unknown]>([
    ['Text', 12],
    ['Multi-line Text', null],
    ['Email', 'ada.example.com'],
    ['Email', 'ada @example.com'],
    ['Phone', ''],
    ['Phone', 123],
    ['Number', '42'],
    ['Number', Number.NaN],
    ['Number', Number.POSITIVE_INFINITY],
    ['Yes/No', 'true'],
    ['Yes/No', 0],
    ['Date', '2025-02-29'],
    ['Date', '2025-2-1'],
    ['Date', '2025-01-01T00:00:00Z'],
    ['Select One', 'xl'],
    ['Select One', ['s']],
    ['Select Multiple', 's'],
    ['Select Multiple', ['s', 's']],
    ['Select Multiple', ['s', 'xl']],
    ['File', ''],
    ['File', { url: 'x' }],
  ])('rejects %s value %j with a message', (type, value) => {
    expect(validatePropertyValue(propertyOf(type), value)).toEqual(expect.any(String));
  });
});

describe('isCalendarDate', () => {
  it.each([['2024-02-29', true], ['2023-02-29', false], ['2024-13-01', false], ['2024-04-31', false], ['0001-01-01', true], ['20240101', false]])(
    'says %s is %s',
    (value, expected) => {
      expect(isCalendarDate(value)).toBe(expected);
    },
  );
});
