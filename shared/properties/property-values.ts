import type { Property } from './property-model.js';

// Deliberately simple: one `@`, no spaces, a dot in the domain. Deliverability is not our call.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (rejects `2025-02-30`). */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0..99 to 1900..1999.
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

function optionValues(property: Property): Set<string> {
  return new Set((property.options ?? []).map((option) => option.value));
}

/**
 * Checks one value against a property's type and options. Returns a human message when the value is
 * invalid, `undefined` when it is fine. Shared by contacts and form responses so that both accept
 * exactly the same values.
 */
export function validatePropertyValue(property: Property, value: unknown): string | undefined {
  switch (property.type) {
    case 'Text':
    case 'Multi-line Text':
      return typeof value === 'string' ? undefined : `must be a string (${property.type})`;
    case 'Phone':
      return typeof value === 'string' && value.trim() !== '' ? undefined : 'must be a non-empty phone number string';
    case 'Email':
      return typeof value === 'string' && isEmail(value) ? undefined : 'must be an email address';
    case 'Number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a finite number';
    case 'Yes/No':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'Date':
      return typeof value === 'string' && isCalendarDate(value) ? undefined : 'must be a date written YYYY-MM-DD';
    case 'File':
      return typeof value === 'string' && value.trim() !== '' ? undefined : 'must be a file URL or id';
    case 'Select One': {
      const allowed = optionValues(property);
      return typeof value === 'string' && allowed.has(value)
        ? undefined
        : `must be one of the option values: ${[...allowed].join(', ')}`;
    }
    case 'Select Multiple': {
      if (!Array.isArray(value)) return 'must be an array of option values';
      const allowed = optionValues(property);
      const seen = new Set<unknown>();
      for (const entry of value) {
        if (typeof entry !== 'string' || !allowed.has(entry)) return `every entry must be one of the option values: ${[...allowed].join(', ')}`;
        if (seen.has(entry)) return `lists "${entry}" more than once`;
        seen.add(entry);
      }
      return undefined;
    }
    default: {
      const exhaustive: never = property.type;
      return `has an unknown type ${String(exhaustive)}`;
    }
  }
}
