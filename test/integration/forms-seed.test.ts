import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeedClient } from '../../bin/local/seed/seed-client.js';
import { seedForms } from '../../bin/local/seed/forms.js';
import { seedPropertiesAndContacts } from '../../bin/local/seed/properties-and-contacts.js';
import { startApi, type TestApi } from './support/api.js';

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

describe('forms demo seeder', () => {
  it('creates a standalone form and an order form with both sections and logic, linked to the demo properties', async () => {
    // Prepare
    const workspace = await api.newWorkspace('Seeded');
    const client = createSeedClient(api.url, workspace.workspaceId, workspace.apiKey);
    await seedPropertiesAndContacts(client);
    // Act
    await seedForms(client);
    // Assess
    const list = await api.request('GET', '/v1/forms?sort=name', { key: workspace.apiKey });
    expect(list.body.data.map((form: { name: string }) => form.name)).toEqual(['Conference registration', 'Newsletter signup']);
    const order = list.body.data[0];
    expect(order.attendeeRowsStart).toBeGreaterThan(0);
    expect(order.elements.some((element: { askAllAttendees: boolean }) => element.askAllAttendees)).toBe(true);
    expect(order.elements.filter((element: { logicGroups?: unknown }) => element.logicGroups)).toHaveLength(2);
    expect(order.elements.find((element: { prompt: string }) => element.prompt === 'Dietary requirements').propertyData.objectType).toBe('ticket');
  });
});
