import type { ContactStatus } from '../contacts/contact-model.js';
import { view } from '../forms/element-kinds.js';
import { sectionOf } from '../forms/form-layout.js';
import type { Property } from '../properties/property-model.js';
import { validatePropertyValue } from '../properties/property-values.js';
import { isBlank, type SubmittedForm } from './response-rules.js';

/** What a valid submission writes to the contact identified by its email answer. */
export interface ContactChanges {
  email: string;
  fields: { firstName?: string; lastName?: string; phone?: string; status?: ContactStatus };
  /** Contact-property values, keyed by property id. */
  properties: Record<string, unknown>;
}

/**
 * The contact changes of a valid submission, or `undefined` when no visible Email question with
 * `contactField: email` was answered (email identifies the contact, spec rule 5). Only the buyer
 * section counts: attendee answers describe ticket holders, not the person submitting. Yes/No
 * `status` maps Yes to `opted-in` and No to `unsubscribed` (rule 6). A contact property gets the
 * answer only when it is a valid value of that property (an Other answer stays in the response).
 */
export function contactChangesOf(
  form: SubmittedForm,
  answers: Readonly<Record<string, unknown>>,
  visible: ReadonlySet<string>,
  properties: ReadonlyMap<string, Property>,
): ContactChanges | undefined {
  const changes: ContactChanges = { email: '', fields: {}, properties: {} };
  for (const element of form.elements.map(view)) {
    if (element.id === undefined || !visible.has(element.id) || sectionOf(form, element) !== 'buyer') continue;
    const value = answers[element.id];
    if (isBlank(value)) continue;
    const field = element.contactField;
    if (field === 'email' && typeof value === 'string' && changes.email === '') changes.email = value.trim();
    else if ((field === 'firstName' || field === 'lastName' || field === 'phone') && typeof value === 'string') changes.fields[field] = value.trim();
    else if (field === 'status' && typeof value === 'boolean') changes.fields.status = value ? 'opted-in' : 'unsubscribed';
    else if (element.propertyId !== undefined) {
      const property = properties.get(element.propertyId);
      if (property?.objectType === 'contact' && validatePropertyValue(property, value) === undefined) changes.properties[property.id] = value;
    }
  }
  return changes.email === '' ? undefined : changes;
}
