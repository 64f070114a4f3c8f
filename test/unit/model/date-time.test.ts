import { describe, expect, it } from 'vitest';
import { dateTimeSchema } from '../../../shared/model/primitives.js';
import { buildOpenApiDocument } from '../../../shared/openapi/document.js';

describe('dateTimeSchema', () => {
  it.each([
    ['2027-06-01T18:00:00+02:00', '2027-06-01T16:00:00Z'],
    ['2027-06-01T01:30:00-05:30', '2027-06-01T07:00:00Z'],
    ['2027-01-01T00:30:00+01:00', '2026-12-31T23:30:00Z'],
    ['2027-06-01T18:00:00.123456+02:00', '2027-06-01T16:00:00.123456Z'],
    ['2027-06-01T18:00:00-00:00', '2027-06-01T18:00:00Z'],
    ['2027-06-01T18:00:00Z', '2027-06-01T18:00:00Z'],
    ['2027-06-01T18:00:00.5Z', '2027-06-01T18:00:00.5Z'],
  ])('turns %s into the same instant in UTC, %s', (input, expected) => {
    // Act
    const parsed = dateTimeSchema.parse(input);
    // Assess
    expect(parsed).toBe(expected);
    expect(Date.parse(parsed)).toBe(Date.parse(input));
  });

  it.each(['2027-06-01T18:00:00', '2027-06-01', '01/06/2027 18:00', '2027-06-01T25:00:00Z', '2027-02-30T10:00:00Z', 'tomorrow', ''])(
    'refuses %j with a message naming ISO 8601 and giving an example',
    (input) => {
      const result = dateTimeSchema.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/ISO 8601.*2027-06-01T18:00:00Z/);
    },
  );

  it('refuses an offset that moves the instant out of the years 0000-9999', () => {
    const result = dateTimeSchema.safeParse('9999-12-31T23:00:00-02:00');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/years 0000 and 9999/);
  });

  it('is described as accepting offsets in requests and carrying only Z in responses', () => {
    // Act
    const schemas = buildOpenApiDocument().components?.schemas as Record<string, { pattern: string; format: string; description: string }>;
    const request = new RegExp(schemas.DateTime!.pattern);
    const response = new RegExp(schemas.DateTimeOutput!.pattern);
    // Assess
    expect(schemas.DateTime!.format).toBe('date-time');
    expect(request.test('2027-06-01T18:00:00+02:00')).toBe(true);
    expect(response.test('2027-06-01T18:00:00+02:00')).toBe(false);
    expect(response.test('2027-06-01T16:00:00Z')).toBe(true);
    expect(schemas.DateTime!.description).toMatch(/offset/);
  });
});
