import type { Property } from '../../../shared/properties/property-model.js';

/** A stored property with sensible defaults; override what the test is about. */
export function aProperty(overrides: Partial<Property> = {}): Property {
  return {
    id: '6740f1a2c3d4e5f601234567',
    type: 'Text',
    name: 'Nickname',
    status: 'active',
    objectType: 'contact',
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function aSelectProperty(type: 'Select One' | 'Select Multiple' = 'Select One', overrides: Partial<Property> = {}): Property {
  return aProperty({ type, name: 'Size', options: [{ value: 's', label: 'Small' }, { value: 'm', label: 'Medium' }], ...overrides });
}
