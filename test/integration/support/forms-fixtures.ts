import type { TestApi } from './api.js';

type Json = Record<string, unknown>;

/** Element factories shared by the form tests. */
export const text = (prompt = 'Question') => ({ type: 'Text', prompt });
export const selectOne = (prompt = 'Size', options = ['S', 'M', 'L']) => ({ type: 'Select One', prompt, options });
export const yesNo = (prompt = 'Newsletter?') => ({ type: 'Yes/No', prompt, dropdown: true });

/**
 * Form helpers bound to a test file's server and workspace. `context` is read at call time, because
 * files start their server in `beforeAll`. Each helper throws on an unexpected status, so a broken
 * setup fails where it happens instead of as a confusing assertion later.
 */
export function formsFixtures(context: () => { api: TestApi; key: string }, defaultName = 'Form') {
  return {
    async createForm(overrides: Json = {}, key = context().key) {
      const response = await context().api.request('POST', '/v1/forms', { key, body: { name: defaultName, type: 'standalone', ...overrides } });
      if (response.status !== 201) throw new Error(`createForm: ${response.status} ${response.text}`);
      return response.body.data;
    },
    async addElement(formId: string, element: Json, key = context().key) {
      const response = await context().api.request('POST', `/v1/forms/${formId}/elements`, { key, body: element });
      if (response.status !== 201) throw new Error(`addElement: ${response.status} ${response.text}`);
      return response.body.data;
    },
    async getForm(formId: string, key = context().key) {
      const response = await context().api.request('GET', `/v1/forms/${formId}`, { key });
      if (response.status !== 200) throw new Error(`getForm: ${response.status} ${response.text}`);
      return response.body.data;
    },
  };
}
