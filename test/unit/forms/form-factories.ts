import type { FormElement } from '../../../shared/forms/form-element-model.js';
import type { Form } from '../../../shared/forms/form-model.js';
import type { Property } from '../../../shared/properties/property-model.js';

let counter = 0;
/** A 24-hex id unique within the test run. */
export function testId(): string {
  counter += 1;
  return counter.toString(16).padStart(24, '0');
}

/** An element with an id; `fields` overrides or adds anything. */
export function element(fields: Record<string, unknown>): FormElement {
  return { id: testId(), prompt: 'Question', ...fields } as FormElement;
}

export const text = (fields: Record<string, unknown> = {}) => element({ type: 'Text', ...fields });
export const selectOne = (fields: Record<string, unknown> = {}) => element({ type: 'Select One', options: ['A', 'B', 'C'], ...fields });
export const yesNo = (fields: Record<string, unknown> = {}) => element({ type: 'Yes/No', dropdown: true, ...fields });
export const email = (fields: Record<string, unknown> = {}) => element({ type: 'Email', contactField: 'email', required: true, ...fields });

/**
 * A valid form around the elements: one full-width row each, in element order; on order forms the
 * buyer elements first, then the attendee (askAllAttendees) ones.
 */
export function form(elements: FormElement[], overrides: Partial<Form> = {}): Form {
  const type = overrides.type ?? 'standalone';
  const indices = elements.map((_element, index) => index);
  const isAttendee = (index: number) => (elements[index] as { askAllAttendees?: boolean }).askAllAttendees === true;
  const ordered = type === 'order' ? [...indices.filter((i) => !isAttendee(i)), ...indices.filter(isAttendee)] : indices;
  const normalized = type === 'order'
    ? elements.map((e) => ({ askAllAttendees: false, ...e }) as FormElement)
    : elements;
  return {
    id: testId(),
    name: 'Form',
    ownerId: 'ws',
    status: 'draft',
    type,
    isEventForm: type === 'order',
    elements: normalized,
    rows: ordered.map((elementIndex) => ({ columns: [{ elementIndex, widthFraction: 1 }] })),
    attendeeRowsStart: type === 'order' ? indices.filter((i) => !isAttendee(i)).length : 0,
    submitButtonText: 'Submit',
    submitButtonWidth: 'auto',
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function property(fields: Partial<Property> = {}): Property {
  return {
    id: testId(), type: 'Text', name: 'Prop', status: 'active', objectType: 'contact', version: 1,
    createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...fields,
  };
}

export function propertyMap(...properties: Property[]): Map<string, Property> {
  return new Map(properties.map((p) => [p.id, p]));
}
