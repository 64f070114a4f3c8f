import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { addElement, inElementTerms } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';

export const addFormElement = implement(formsRoutes.addFormElement, async ({ workspaceId, params, body, ifMatch }) => {
  let added = -1;
  const form = await changeForm(workspaceId, params.formId, ifMatch, (current) => {
    const result = addElement(current, body);
    added = result.index;
    return result.form;
  }).catch((error: unknown) => { throw inElementTerms(error, added); });
  return { data: form.elements[added] };
});
