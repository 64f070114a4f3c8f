import type { Contact } from '../../../shared/contacts/contact-model.js';
import { createContact } from '../../../shared/contacts/contacts-repository.js';
import { FORM_STATUSES, type Form } from '../../../shared/forms/form-model.js';
import { createForm } from '../../../shared/forms/forms-repository.js';
import { newId } from '../../../shared/ids.js';
import { createProperty } from '../../../shared/properties/properties-repository.js';
import { OBJECT_TYPES, PROPERTY_STATUSES, type Property } from '../../../shared/properties/property-model.js';
import type { FormResponse } from '../../../shared/responses/response-model.js';
import { saveSubmission } from '../../../shared/responses/responses-repository.js';

/**
 * Seeders for the list cost tests (and the bench's scaling suite): N items of a domain written
 * through its repository, as fast as DynamoDB Local takes them. Values are fixed-width, so items of
 * a workspace with 10x the data have exactly the size of the 1x items and a page costs the same
 * capacity whatever the data around it.
 */

/** Value `i` of a fixed-width sequence: `00042`. */
export const seq = (i: number) => String(i).padStart(5, '0');

/**
 * `count` properties named `Prop 00000`, ... in creation order: objectTypes in turn (`i % 4`) and
 * every other run of four archived (`floor(i / 4) % 2`), so each objectType x status combination
 * holds one eighth of them. Names are created in reverse of their creation order and `updatedAt`
 * runs backwards, so the three sort orders all differ.
 */
export async function seedProperties(workspaceId: string, count: number): Promise<Property[]> {
  const base = Date.UTC(2026, 0, 1);
  const properties: Property[] = [];
  for (let i = 0; i < count; i += 1) {
    const property: Property = {
      id: newId(new Date(base + i * 1000)),
      type: 'Text',
      name: `Prop ${seq(count - i)}`,
      status: PROPERTY_STATUSES[Math.floor(i / 4) % 2] as Property['status'],
      objectType: OBJECT_TYPES[i % 4] as Property['objectType'],
      version: 1,
      createdAt: new Date(base + i * 1000).toISOString(),
      updatedAt: new Date(base + (count * 7 - i * 3) * 1000).toISOString(),
    };
    await createProperty(workspaceId, property);
    properties.push(property);
  }
  return properties;
}

/**
 * `count` contacts in creation order, emailed `contact-00000@example.com`, ... in reverse of their
 * creation order, so the creation and email orders differ.
 */
export async function seedContacts(workspaceId: string, count: number): Promise<Contact[]> {
  const base = Date.UTC(2026, 0, 1);
  const contacts: Contact[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = new Date(base + i * 1000);
    const contact: Contact = { id: newId(at), email: `contact-${seq(count - i)}@example.com`, properties: {}, version: 1, createdAt: at.toISOString(), updatedAt: at.toISOString() };
    await createContact(workspaceId, contact);
    contacts.push(contact);
  }
  return contacts;
}

/**
 * `count` empty standalone forms in creation order: statuses in turn (`draft`, `active`, `archived`),
 * names in reverse of their creation order and `updatedAt` running backwards, so the three sort
 * orders all differ.
 */
export async function seedForms(workspaceId: string, count: number): Promise<Form[]> {
  const base = Date.UTC(2026, 0, 1);
  const forms: Form[] = [];
  for (let i = 0; i < count; i += 1) {
    const form: Form = {
      id: newId(new Date(base + i * 1000)),
      name: `Form ${seq(count - i)}`,
      ownerId: workspaceId,
      status: FORM_STATUSES[i % 3] as Form['status'],
      type: 'standalone',
      isEventForm: false,
      elements: [],
      rows: [],
      attendeeRowsStart: 0,
      submitButtonText: 'Submit',
      submitButtonWidth: 'auto',
      version: 1,
      createdAt: new Date(base + i * 1000).toISOString(),
      updatedAt: new Date(base + (count * 7 - i * 3) * 1000).toISOString(),
    };
    await createForm(workspaceId, form);
    forms.push(form);
  }
  return forms;
}

/**
 * A form with `count` responses, each from one of `contactIds` in turn (their `contactId`
 * projections included), in submission order.
 */
export async function seedResponses(workspaceId: string, count: number, contactIds: readonly string[]): Promise<{ form: Form; responses: FormResponse[] }> {
  const [form] = await seedForms(workspaceId, 1);
  const base = Date.UTC(2026, 0, 1);
  const responses: FormResponse[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = new Date(base + i * 1000);
    const response: FormResponse = {
      id: newId(at), formId: (form as Form).id, answers: { [newId(new Date(base))]: `answer ${seq(i)}` }, contactId: contactIds[i % contactIds.length] as string, createdAt: at.toISOString(),
    };
    await saveSubmission(workspaceId, response);
    responses.push(response);
  }
  return { form: form as Form, responses };
}
