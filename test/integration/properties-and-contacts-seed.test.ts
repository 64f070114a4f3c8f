import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPropertiesAndContacts } from '../../bin/local/seed/properties-and-contacts.js';
import { createSeedClient } from '../../bin/local/seed/seed-client.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Seeded CRM');
});
afterAll(async () => api.close());

describe('properties-and-contacts demo seeder', () => {
  it('creates the demo properties and contacts through the API', async () => {
    // Act
    await seedPropertiesAndContacts(createSeedClient(api.url, workspace.workspaceId, workspace.apiKey));
    const properties = await api.request('GET', '/v1/properties?limit=100', { key: workspace.apiKey });
    const contacts = await api.request('GET', '/v1/contacts?sort=email', { key: workspace.apiKey });
    // Assess
    expect(properties.body.data.find((p: { name: string }) => p.name === 'T-shirt size')).toMatchObject({ type: 'Select One', objectType: 'contact' });
    expect(new Set(properties.body.data.map((p: { objectType: string }) => p.objectType))).toEqual(new Set(['contact', 'order', 'ticket']));
    expect(contacts.body.data.map((c: { email: string; defaultPaymentMethod?: string }) => [c.email, c.defaultPaymentMethod])).toEqual([
      ['ada@example.com', 'pm_card_visa'],
      ['alan@example.com', undefined],
      ['grace@example.com', 'pm_card_chargeDeclined'],
    ]);
  });
});
