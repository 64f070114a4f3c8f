import type { SeedClient, Seeder } from './seed-client.js';

interface Created { data: { id: string } }
interface PropertyList { data: { id: string; name: string }[] }

/** Adds elements in order and returns their ids by prompt. */
async function addElements(client: SeedClient, formId: string, elements: Record<string, unknown>[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const element of elements) {
    const { data } = await client.request<Created>('POST', `/v1/forms/${formId}/elements`, element);
    ids[element.prompt as string] = data.id;
  }
  return ids;
}

async function addRule(client: SeedClient, formId: string, sourceId: string, revealedElementId: string, condition: Record<string, unknown>): Promise<void> {
  await client.request('POST', `/v1/forms/${formId}/elements/${sourceId}/logic-rules`, { revealedElementId, condition });
}

/** Demo forms: a standalone signup form and an order form with buyer and attendee sections and logic. */
export const seedForms: Seeder = async (client) => {
  const { data: properties } = await client.request<PropertyList>('GET', '/v1/properties?limit=100');
  const property = (name: string) => properties.find((candidate) => candidate.name === name)?.id;

  const { data: signup } = await client.request<Created>('POST', '/v1/forms', { name: 'Newsletter signup', type: 'standalone', status: 'active', submitButtonText: 'Sign me up' });
  const tshirt = property('T-shirt size');
  const newsletter = property('Newsletter');
  const signupIds = await addElements(client, signup.id, [
    { type: 'Static Text', prompt: 'Welcome', content: 'Tell us a little about yourself.' },
    { type: 'Email', prompt: 'Email', contactField: 'email', required: true, placeholder: 'you@example.com' },
    { type: 'Text', prompt: 'First name', contactField: 'firstName' },
    { type: 'Text', prompt: 'Last name', contactField: 'lastName' },
    tshirt ? { type: 'Select One', prompt: 'T-shirt size', propertyId: tshirt, dropdown: true, placeholder: 'Choose a size' } : { type: 'Select One', prompt: 'T-shirt size', options: ['S', 'M', 'L'] },
    newsletter ? { type: 'Yes/No', prompt: 'Subscribe to the newsletter?', dropdown: true, propertyId: newsletter } : { type: 'Yes/No', prompt: 'Subscribe to the newsletter?', dropdown: true },
    { type: 'Select Multiple with "Other"', prompt: 'Topics', options: ['Concerts', 'Workshops', 'Talks'], minChoices: 1, otherPrompt: 'Something else' },
  ]);
  // First and last name side by side; the rest one per row.
  await client.request('PUT', `/v1/forms/${signup.id}/layout`, {
    rows: [
      { columns: [{ elementIndex: 0, widthFraction: 1 }] },
      { columns: [{ elementIndex: 1, widthFraction: 1 }] },
      { columns: [{ elementIndex: 2, widthFraction: 0.5 }, { elementIndex: 3, widthFraction: 0.5 }] },
      { columns: [{ elementIndex: 4, widthFraction: 1 }] },
      { columns: [{ elementIndex: 5, widthFraction: 1 }] },
      { columns: [{ elementIndex: 6, widthFraction: 1 }] },
    ],
    attendeeRowsStart: 0,
  });
  await addRule(client, signup.id, signupIds['Subscribe to the newsletter?'] as string, signupIds.Topics as string, { selectionType: 'is', value: true });

  const { data: order } = await client.request<Created>('POST', '/v1/forms', { name: 'Conference registration', type: 'order', status: 'active' });
  const company = property('Company');
  const dietary = property('Dietary requirements');
  const orderIds = await addElements(client, order.id, [
    { type: 'Email', prompt: 'Email', contactField: 'email', required: true },
    company ? { type: 'Text', prompt: 'Company', propertyId: company } : { type: 'Text', prompt: 'Company' },
    { type: 'Select One or "Other"', prompt: 'How did you hear about us?', options: ['A friend', 'Social media', 'Search'], otherPrompt: 'Elsewhere' },
    { type: 'Text', prompt: 'Who referred you?' },
    { type: 'Text', prompt: 'Attendee name', required: true, askAllAttendees: true },
    dietary
      ? { type: 'Select Multiple', prompt: 'Dietary requirements', propertyId: dietary, minChoices: 0, askAllAttendees: true }
      : { type: 'Select Multiple', prompt: 'Dietary requirements', options: ['Vegetarian', 'Vegan', 'Gluten free'], minChoices: 0, askAllAttendees: true },
    { type: 'Multi-line Text', prompt: 'Allergy details', askAllAttendees: true },
  ]);
  await addRule(client, order.id, orderIds['How did you hear about us?'] as string, orderIds['Who referred you?'] as string, { optionIndices: [0], operator: 'any_of' });
  await addRule(client, order.id, orderIds['Dietary requirements'] as string, orderIds['Allergy details'] as string, { optionIndices: [2], operator: 'any_of' });
};
