import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids.js';
import type { FormResponse } from '../../shared/responses/response-model.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { seedResponses } from './support/crm-seed.js';
import { expectFlatCost, idsByCursor, idsByPages } from './support/list-costs.js';

/**
 * `GET /v1/forms/{formId}/responses`: the form's response partition, or with `contactId` that
 * contact's projection partition; pages cost the same for a form with ten times the responses and on
 * a deep cursor page. A foreign workspace holds responses of the same contacts.
 */

let api: TestApi;
let small: TestWorkspace;
let large: TestWorkspace;
const contactIds = [newId(), newId(), newId(), newId()];
let smallForm: { form: { id: string }; responses: FormResponse[] };
let largeForm: { form: { id: string }; responses: FormResponse[] };

beforeAll(async () => {
  api = await startApi();
  let foreign: TestWorkspace;
  [small, large, foreign] = await Promise.all([api.newWorkspace('Responses 1x'), api.newWorkspace('Responses 10x'), api.newWorkspace('Responses foreign')]);
  [smallForm, largeForm] = await Promise.all([
    seedResponses(small.workspaceId, 40, contactIds), seedResponses(large.workspaceId, 400, contactIds), seedResponses(foreign.workspaceId, 40, contactIds),
  ]);
}, 180_000);
afterAll(async () => api.close());

const FILTERS = [{ label: 'unfiltered', query: '', calls: 2, items: 1 + 5 }, { label: 'contactId', query: `&contactId=${contactIds[1]}`, calls: 3, items: 1 + 5 + 4 }];

describe('GET /v1/forms/{formId}/responses: one partition per filter', () => {
  it.each(FILTERS)('lists $label newest first by page numbers and by cursor alike, only this form\'s responses', async ({ query }) => {
    const path = `/v1/forms/${smallForm.form.id}/responses?direction=desc${query}`;
    const wanted = smallForm.responses.filter((response) => query === '' || response.contactId === contactIds[1]).map((response) => response.id).reverse();
    const byPages = await idsByPages(api, small.apiKey, path, 7);
    expect(byPages).toEqual(wanted);
    expect(await idsByCursor(api, small.apiKey, path, 7)).toEqual(byPages);
  });

  it.each(FILTERS)('costs the same for $label with 10x the responses, and on a deep cursor page as on page 0', async ({ query, calls, items }) => {
    // The form pointer (ownership), one Query of limit + 1 items, and with contactId one BatchGet of the page.
    await expectFlatCost(api, {
      small: { key: small.apiKey, path: `/v1/forms/${smallForm.form.id}/responses?direction=desc${query}` },
      large: { key: large.apiKey, path: `/v1/forms/${largeForm.form.id}/responses?direction=desc${query}` },
    }, 4, { calls, items });
  });
});
