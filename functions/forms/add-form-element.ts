import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { addElement } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';
import { parseIfMatch } from '../../shared/http/if-match.js';

export const addFormElement = implement(formsRoutes.addFormElement, async ({ workspaceId, params, body, headers }) => {
  let added = -1;
  const form = await changeForm(workspaceId, params.formId, parseIfMatch(headers), (current) => {
    const result = addElement(current, body);
    added = result.index;
    return result.form;
  });
  return { data: form.elements[added] };
});
