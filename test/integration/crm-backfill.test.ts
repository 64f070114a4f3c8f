import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackfillRaceError } from '../../shared/db/backfill.js';
import { getItem, putItem } from '../../shared/db/conditional.js';
import { entityAttribute } from '../../shared/db/table-design.js';
import { formStatusBackfill } from '../../shared/forms/form-backfill.js';
import { formKeys, toFormItem, toFormPointerItem, type Form } from '../../shared/forms/form-model.js';
import { newId } from '../../shared/ids.js';
import { propertyListBackfill } from '../../shared/properties/property-backfill.js';
import { propertyKeys, toNameGuardItem, type Property } from '../../shared/properties/property-model.js';
import { responseByContactBackfill } from '../../shared/responses/response-backfill.js';
import { responseKeys, toResponseItem, type FormResponse } from '../../shared/responses/response-model.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { seedForms } from './support/crm-seed.js';

/**
 * Backfill steps of the CRM domains: an item written before its derived items existed (as the
 * previous code wrote it) gets them, the lists find it, and a second run changes nothing.
 */

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('CRM backfill');
});
afterAll(async () => api.close());

const listIds = async (query: string) => (await api.request('GET', `/v1/properties?${query}`, { key: workspace.apiKey })).body.data.map((item: { id: string }) => item.id);

describe('property list backfill', () => {
  /** A property as the previous code stored it: the item and its name guard, no orders, no projections. */
  async function legacyProperty(): Promise<{ property: Property; item: Record<string, unknown> }> {
    const now = new Date().toISOString();
    const property: Property = { id: newId(), type: 'Text', name: `Legacy ${newId()}`, status: 'archived', objectType: 'event', version: 3, createdAt: now, updatedAt: now };
    const item = { ...propertyKeys.property(workspace.workspaceId, property.id), ...entityAttribute('Property'), ...property };
    await putItem(item);
    await putItem(toNameGuardItem(workspace.workspaceId, property));
    return { property, item };
  }

  it('places a legacy property in every order and filter list, and a second run changes nothing', async () => {
    // Prepare
    const { property, item } = await legacyProperty();
    const lists = ['sort=name', 'sort=updatedAt', 'objectType=event', 'status=archived&sort=name', 'objectType=event&status=archived&sort=updatedAt'];
    const before = await Promise.all(lists.map(listIds));
    // Act
    const written = await propertyListBackfill.rebuild(item);
    const stored = await getItem(propertyKeys.property(workspace.workspaceId, property.id), { consistent: true });
    const again = await propertyListBackfill.rebuild(stored as Record<string, unknown>);
    const storedAgain = await getItem(propertyKeys.property(workspace.workspaceId, property.id), { consistent: true });
    const after = await Promise.all(lists.map(listIds));
    // Assess
    expect(before.every((ids) => !ids.includes(property.id))).toBe(true);
    expect(after.every((ids) => ids.includes(property.id))).toBe(true);
    expect([written, again]).toEqual([4, 4]);
    expect(storedAgain).toEqual(stored);
    expect(stored).toMatchObject({ ...property });
  });

  it('skips a property changed since the scan read it, leaving the change\'s own items', async () => {
    // Prepare
    const { item } = await legacyProperty();
    await api.request('PATCH', `/v1/properties/${item.id}`, { key: workspace.apiKey, body: { description: 'changed meanwhile' } });
    // Act
    const attempt = propertyListBackfill.rebuild(item);
    // Assess
    await expect(attempt).rejects.toBeInstanceOf(BackfillRaceError);
    const current = await api.request('GET', `/v1/properties/${item.id}`, { key: workspace.apiKey });
    expect(current.body.data).toMatchObject({ description: 'changed meanwhile', version: 4 });
  });
});

describe('form status backfill', () => {
  /** A form as the previous code stored it: the form (with its name and update orders) and its pointer, no status projection. */
  async function legacyForm(): Promise<{ form: Form; item: Record<string, unknown> }> {
    const now = new Date().toISOString();
    const form: Form = {
      id: newId(), name: `Legacy ${newId()}`, ownerId: workspace.workspaceId, status: 'active', type: 'standalone', isEventForm: false, elements: [], rows: [],
      attendeeRowsStart: 0, submitButtonText: 'Submit', submitButtonWidth: 'auto', version: 2, createdAt: now, updatedAt: now,
    };
    const item = toFormItem(workspace.workspaceId, form);
    await putItem(item);
    await putItem(toFormPointerItem(workspace.workspaceId, form.id));
    return { form, item };
  }
  const formIds = async (query: string) => (await api.request('GET', `/v1/forms?${query}`, { key: workspace.apiKey })).body.data.map((item: { id: string }) => item.id);

  it('places a legacy form in the status list of every sort, and a second run changes nothing', async () => {
    // Prepare
    const { form, item } = await legacyForm();
    const lists = ['status=active', 'status=active&sort=name', 'status=active&sort=updatedAt'];
    const before = await Promise.all(lists.map(formIds));
    // Act
    const written = [await formStatusBackfill.rebuild(item), await formStatusBackfill.rebuild(item)];
    const after = await Promise.all(lists.map(formIds));
    // Assess
    expect(before.every((ids) => !ids.includes(form.id))).toBe(true);
    expect(after.every((ids) => ids.filter((id: string) => id === form.id).length === 1)).toBe(true);
    expect(written).toEqual([1, 1]);
    expect(await getItem(formKeys.form(workspace.workspaceId, form.id), { consistent: true })).toEqual(item);
  });

  it('moves a form of the `#`-separated name order to the NUL-separated one, under the form\'s version', async () => {
    // Prepare: a form whose name order the previous code wrote (`<name>#<id>`): after `gala 2027`, not before.
    const { form } = await legacyForm();
    const named = async (name: string) => (await api.request('POST', '/v1/forms', { key: workspace.apiKey, body: { name, type: 'standalone' } })).body.data.id as string;
    const prefix = `Order ${newId()}`;
    const longer = await named(`${prefix} 2027`);
    await api.request('PATCH', `/v1/forms/${form.id}`, { key: workspace.apiKey, body: { name: prefix } });
    const renamed = await getItem(formKeys.form(workspace.workspaceId, form.id), { consistent: true }) as Record<string, unknown>;
    const legacyOrder = Object.fromEntries(Object.entries(renamed).filter(([, value]) => typeof value === 'string' && value.includes('\u0000')).map(([name, value]) => [name, (value as string).replace('\u0000', '#')]));
    expect(Object.keys(legacyOrder)).toHaveLength(1);
    const legacy = { ...renamed, ...legacyOrder };
    await putItem(legacy);
    const byName = async () => (await formIds('sort=name&limit=100')).filter((id: string) => id === form.id || id === longer);
    expect(await byName()).toEqual([longer, form.id]);
    // Act
    const written = await formStatusBackfill.rebuild(legacy);
    // Assess: the form's order is rewritten (and its projection put), then it sorts before the longer name.
    expect(written).toBe(2);
    expect(await byName()).toEqual([form.id, longer]);
    expect(await formStatusBackfill.rebuild(await getItem(formKeys.form(workspace.workspaceId, form.id), { consistent: true }) as Record<string, unknown>)).toBe(1);
  });

  it('skips a form changed since the scan read it', async () => {
    const { item } = await legacyForm();
    await api.request('PATCH', `/v1/forms/${item.id}`, { key: workspace.apiKey, body: { status: 'archived' } });
    await expect(formStatusBackfill.rebuild(item)).rejects.toBeInstanceOf(BackfillRaceError);
    expect(await formIds('status=archived')).toContain(item.id);
    expect(await formIds('status=active')).not.toContain(item.id);
  });
});

describe('form response by-contact backfill', () => {
  it('lets the contactId filter find a response stored without its projection, and a second run changes nothing', async () => {
    // Prepare
    const [form] = await seedForms(workspace.workspaceId, 1);
    const contactId = newId();
    const response: FormResponse = { id: newId(), formId: (form as Form).id, contactId, answers: { q: 'legacy' }, createdAt: new Date().toISOString() };
    const anonymous: FormResponse = { id: newId(), formId: (form as Form).id, answers: { q: 'no contact' }, createdAt: new Date().toISOString() };
    await putItem(toResponseItem(workspace.workspaceId, response));
    await putItem(toResponseItem(workspace.workspaceId, anonymous));
    const path = `/v1/forms/${(form as Form).id}/responses?contactId=${contactId}`;
    const before = await api.request('GET', path, { key: workspace.apiKey });
    // Act
    const written = [
      await responseByContactBackfill.rebuild(toResponseItem(workspace.workspaceId, response)),
      await responseByContactBackfill.rebuild(toResponseItem(workspace.workspaceId, response)),
      await responseByContactBackfill.rebuild(toResponseItem(workspace.workspaceId, anonymous)),
    ];
    const after = await api.request('GET', path, { key: workspace.apiKey });
    // Assess
    expect(before.body.data).toEqual([]);
    expect(after.body.data).toEqual([response]);
    expect(written).toEqual([1, 1, 0]);
    expect(await getItem(responseKeys.byContact(workspace.workspaceId, response.formId, contactId, response.id))).toMatchObject({ responseId: response.id });
  });
});
