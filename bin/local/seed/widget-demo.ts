import type { Seeder } from './seed-client.js';

interface Created { data: { id: string } }
interface Listed<T> { data: T[] }

/** Name of the demo form that `/widget/demo` embeds (bin/local/widget-demo.ts finds it by name). */
export const WIDGET_DEMO_FORM_NAME = 'Event feedback';

const DAY = 86_400_000;
const isoDay = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/** Places for the demo partner's events, so the events widget has something to show beside dates. */
const PLACES: Record<string, Record<string, string>> = {
  'Jazz on the Harbour': { name: 'Harbourfront Stage', city: 'Montreal' },
  'Indie Night': { name: 'The Garrison', city: 'Toronto' },
  'Food Truck Festival': { name: 'Old Port', city: 'Montreal' },
  'Spring Gala (past)': { name: 'Grand Ballroom', city: 'Montreal' },
};

/**
 * The form behind `/widget/demo`: every element type, rows with columns, and one logic rule of each
 * kind (all_of, any_of, none_of, Other, Yes/No is and is_not), so the `<boxoffice-form>` widget can be
 * seen (and is tested) hiding and revealing questions. Also gives the demo partner's events a poster
 * and a place. Runs after the images seeder (it uses the first demo image).
 */
export const seedWidgetDemo: Seeder = async (client) => {
  const imageUrl = (await client.request<Listed<{ url: string }>>('GET', '/v1/assets/images?pageSize=1')).data[0]?.url;
  const events = (await client.request<Listed<{ id: string; name: string }>>('GET', '/v1/events?limit=100')).data;
  for (const event of events) {
    const location = PLACES[event.name];
    if (location) await client.request('PATCH', `/v1/events/${event.id}`, { location, ...(imageUrl ? { image: [imageUrl] } : {}) });
  }

  const properties = (await client.request<Listed<{ id: string; name: string }>>('GET', '/v1/properties?limit=100')).data;
  const tshirt = properties.find((property) => property.name === 'T-shirt size')?.id;
  const { data: form } = await client.request<Created>('POST', '/v1/forms', { name: WIDGET_DEMO_FORM_NAME, type: 'standalone', status: 'active', submitButtonText: 'Send feedback', submitButtonAlign: 'center' });
  const elements: Record<string, unknown>[] = [
    { type: 'Static Text', prompt: 'Thanks for coming!', content: 'Tell us how the evening went.\n\nMore questions appear as you answer.' },
    ...(imageUrl ? [{ type: 'Static Image', prompt: 'Poster of the evening', promptHidden: true, imageUrl, imageWidth: 40 }] : []),
    { type: 'Email', prompt: 'Email', contactField: 'email', required: true, placeholder: 'you@example.com' },
    { type: 'Text', prompt: 'First name', contactField: 'firstName' },
    { type: 'Text', prompt: 'Last name', contactField: 'lastName' },
    { type: 'Phone', prompt: 'Phone', contactField: 'phone', helperText: 'Only used if we have a question about your feedback.' },
    { type: 'Select Multiple', prompt: 'Which sessions did you attend?', options: ['Keynote', 'Workshop', 'Networking'], minChoices: 0 },
    { type: 'Number', prompt: 'How many workshop exercises did you finish?', minValue: 0, maxValue: 10, integerOnly: true },
    { type: 'Multi-line Text', prompt: 'What kept you from the sessions?' },
    { type: 'Select One or "Other"', prompt: 'How did you hear about us?', options: ['A friend', 'Social media', 'Search'], otherPrompt: 'Somewhere else' },
    { type: 'Text', prompt: 'Who told you about us?' },
    { type: 'Text', prompt: 'Where was that?' },
    { type: 'Yes/No', prompt: 'Would you come again?', dropdown: true },
    { type: 'Date', prompt: 'When could you come next?', min: isoDay(1), max: isoDay(365) },
    { type: 'Multi-line Text', prompt: 'What would bring you back?' },
    tshirt
      ? { type: 'Select One', prompt: 'T-shirt size', propertyId: tshirt, dropdown: true, placeholder: 'Choose a size' }
      : { type: 'Select One', prompt: 'T-shirt size', options: ['S', 'M', 'L'], dropdown: true, placeholder: 'Choose a size' },
    { type: 'Select Multiple with "Other"', prompt: 'Topics for next year', options: ['Jazz', 'Food', 'Workshops'], minChoices: 1, maxChoices: 2, otherPrompt: 'Something else' },
    { type: 'File', prompt: 'Share a photo of the evening', accept: ['images'] },
    { type: 'Yes/No', prompt: 'Subscribe to the newsletter?', dropdown: true, contactField: 'status' },
  ];
  const ids: Record<string, string> = {};
  for (const element of elements) {
    const { data } = await client.request<Created>('POST', `/v1/forms/${form.id}/elements`, element);
    ids[element.prompt as string] = data.id;
  }
  const index = (prompt: string) => elements.findIndex((element) => element.prompt === prompt);
  const row = (...columns: [string, number][]) => ({ columns: columns.map(([prompt, widthFraction]) => ({ elementIndex: index(prompt), widthFraction })) });
  await client.request('PUT', `/v1/forms/${form.id}/layout`, {
    rows: [
      row(['Thanks for coming!', 1]),
      ...(imageUrl ? [row(['Poster of the evening', 1])] : []),
      row(['Email', 0.5], ['Phone', 0.5]),
      row(['First name', 0.5], ['Last name', 0.5]),
      row(['Which sessions did you attend?', 1]),
      row(['How many workshop exercises did you finish?', 1]),
      row(['What kept you from the sessions?', 1]),
      row(['How did you hear about us?', 1]),
      row(['Who told you about us?', 0.5], ['Where was that?', 0.5]),
      row(['Would you come again?', 1]),
      row(['When could you come next?', 0.4], ['What would bring you back?', 0.6]),
      row(['T-shirt size', 0.4], ['Topics for next year', 0.6]),
      row(['Share a photo of the evening', 1]),
      row(['Subscribe to the newsletter?', 1]),
    ],
    attendeeRowsStart: 0,
  });
  const rule = (source: string, revealed: string, condition: Record<string, unknown>) =>
    client.request('POST', `/v1/forms/${form.id}/elements/${ids[source]}/logic-rules`, { revealedElementId: ids[revealed], condition });
  await rule('Which sessions did you attend?', 'How many workshop exercises did you finish?', { optionIndices: [0, 1], operator: 'all_of' });
  await rule('Which sessions did you attend?', 'What kept you from the sessions?', { optionIndices: [0, 1, 2], operator: 'none_of' });
  await rule('How did you hear about us?', 'Who told you about us?', { optionIndices: [0], operator: 'any_of' });
  await rule('How did you hear about us?', 'Where was that?', { optionIndices: [-1], operator: 'any_of' });
  await rule('Would you come again?', 'When could you come next?', { selectionType: 'is', value: true });
  await rule('Would you come again?', 'What would bring you back?', { selectionType: 'is_not', value: true });
};
