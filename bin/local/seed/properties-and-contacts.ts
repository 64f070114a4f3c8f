import type { Seeder } from './seed-client.js';

interface Created { data: { id: string } }

/** Demo CRM properties (later seeders find them by name through GET /v1/properties). */
const DEMO_PROPERTIES = [
  { type: 'Select One', name: 'T-shirt size', objectType: 'contact', description: 'Asked once per person.', options: [
    { value: 's', label: 'Small' }, { value: 'm', label: 'Medium' }, { value: 'l', label: 'Large' },
  ] },
  { type: 'Yes/No', name: 'Newsletter', objectType: 'contact' },
  { type: 'Date', name: 'Date of birth', objectType: 'contact' },
  { type: 'Select Multiple', name: 'Dietary requirements', objectType: 'ticket', options: [
    { value: 'vegetarian', label: 'Vegetarian' }, { value: 'vegan', label: 'Vegan' }, { value: 'gluten-free', label: 'Gluten free' },
  ] },
  { type: 'Text', name: 'Company', objectType: 'order' },
  { type: 'Number', name: 'Group size', objectType: 'order' },
] as const;

/** Seeds CRM properties and a few contacts, including two with sandbox card tokens for invoices. */
export const seedPropertiesAndContacts: Seeder = async (client) => {
  const ids: Record<string, string> = {};
  for (const property of DEMO_PROPERTIES) {
    const { data } = await client.request<Created>('POST', '/v1/properties', property);
    ids[property.name] = data.id;
  }
  const size = ids['T-shirt size'] as string;
  const newsletter = ids.Newsletter as string;
  const contacts = [
    { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', phone: '+44 20 7946 0000', status: 'opted-in',
      defaultPaymentMethod: 'pm_card_visa', properties: { [size]: 'm', [newsletter]: true } },
    { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper', status: 'opted-in',
      defaultPaymentMethod: 'pm_card_chargeDeclined', properties: { [size]: 's' } },
    { email: 'alan@example.com', firstName: 'Alan', lastName: 'Turing', status: 'unsubscribed', properties: { [newsletter]: false } },
  ];
  for (const contact of contacts) await client.request('POST', '/v1/contacts', contact);
};
