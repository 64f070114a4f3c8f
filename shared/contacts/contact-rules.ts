import { isDeepStrictEqual } from 'node:util';
import type { ErrorDetail } from '../errors.js';
import { isId, newId } from '../ids.js';
import { mergePatch } from '../model/merge-patch.js';
import type { Property } from '../properties/property-model.js';
import { validatePropertyValue } from '../properties/property-values.js';
import type { Contact, ContactPatch, NewContactInput } from './contact-model.js';
import { sameContent } from '../model/round-trip.js';

const OPTIONAL_FIELDS = ['firstName', 'lastName', 'phone', 'status', 'defaultPaymentMethod'] as const;


/** Property ids worth reading for these values: removals (`null`) and malformed ids need no read. */
export function propertyIdsToRead(values: Record<string, unknown> | undefined): string[] {
  return Object.entries(values ?? {}).filter(([id, value]) => value !== null && isId(id)).map(([id]) => id);
}

/**
 * The patch's property values that are not the contact's stored value for that property: only these
 * are validated. A value sent back unchanged is kept as is, even when it no longer fits its property
 * (a renamed Select option leaves the old value, which then matches no option: spec), so that a GET
 * body sent back with another field edited is not refused for a value the client did not touch.
 */
export function changedPropertyValues(values: Record<string, unknown> | undefined, stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([id, value]) => !Object.hasOwn(stored, id) || !isDeepStrictEqual(value, stored[id])));
}

/**
 * Checks contact property values against their definitions: each id must be a `contact` property of
 * the workspace and each value valid for its type and options. `null` (a removal) is always fine.
 */
export function contactPropertyIssues(values: Record<string, unknown> | undefined, properties: ReadonlyMap<string, Property>): ErrorDetail[] {
  const issues: ErrorDetail[] = [];
  for (const [id, value] of Object.entries(values ?? {})) {
    if (value === null) continue;
    const path = `properties.${id}`;
    const property = properties.get(id);
    if (!property) {
      issues.push({ path, message: `There is no property with the id "${id}" in this workspace.` });
    } else if (property.objectType !== 'contact') {
      issues.push({ path, message: `Property "${property.name}" is a ${property.objectType} property; contacts take contact properties only.` });
    } else {
      const problem = validatePropertyValue(property, value);
      if (problem) issues.push({ path, message: `Value for "${property.name}" ${problem}.` });
    }
  }
  return issues;
}

/** Drops `null` values: on create they mean "not set". */
function withoutNulls(values: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([, value]) => value !== null));
}

/** Builds a new contact at version 1 (property values must already be validated). */
export function buildContact(input: NewContactInput, now: Date = new Date()): Contact {
  const timestamp = now.toISOString();
  const contact: Contact = { id: newId(now), email: input.email, properties: withoutNulls(input.properties), version: 1, createdAt: timestamp, updatedAt: timestamp };
  for (const field of OPTIONAL_FIELDS) {
    if (input[field] !== undefined) Object.assign(contact, { [field]: input[field] });
  }
  return contact;
}

/** Applies a patch; `undefined` when nothing changes (no write, no version bump). */
export function applyContactPatch(current: Contact, patch: ContactPatch, now: Date = new Date()): Contact | undefined {
  // Properties merge one level down: `null` on a property id removes that value.
  const next: Contact = { ...mergePatch(current, patch, ['email', ...OPTIONAL_FIELDS]), properties: mergePatch(current.properties, patch.properties ?? {}) };
  if (sameContent(next, current)) return undefined;
  return { ...next, version: current.version + 1, updatedAt: now.toISOString() };
}

/** A field or property value that holds nothing: absent, `null`, a blank string or an empty array. */
function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/** What an anonymous submission may write to a contact it names by email (everything but the email). */
export interface SubmittedContactValues {
  fields: { firstName?: string; lastName?: string; phone?: string; status?: Contact['status'] };
  /** Contact-property values, keyed by property id (already valid for their properties). */
  properties: Record<string, unknown>;
}

const FILLABLE_FIELDS = ['firstName', 'lastName', 'phone'] as const;

/**
 * Merges what an anonymous submission (no key) says about an EXISTING contact: it only fills what is
 * empty. A name, phone or property value the contact already has is never changed, and neither is its
 * `status` (the opt-in), whatever was submitted: whoever knows an email must not be able to rewrite
 * or unsubscribe somebody else's contact. The submitted values stay on the response for the host.
 * `undefined` when nothing is left to fill (no write, no version bump).
 */
export function fillEmptyContactFields(current: Contact, submitted: SubmittedContactValues, now: Date = new Date()): Contact | undefined {
  const patch: ContactPatch = { properties: {} };
  for (const field of FILLABLE_FIELDS) {
    const value = submitted.fields[field];
    if (value !== undefined && !isEmptyValue(value) && isEmptyValue(current[field])) patch[field] = value;
  }
  for (const [id, value] of Object.entries(submitted.properties)) {
    if (!isEmptyValue(value) && isEmptyValue(current.properties[id])) (patch.properties as Record<string, unknown>)[id] = value;
  }
  return applyContactPatch(current, patch, now);
}
