import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { indexOfElement, toggleOther } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';
import { parseIfMatch } from '../../shared/http/if-match.js';

export const toggleElementOther = implement(formsRoutes.toggleElementOther, async ({ workspaceId, params, body, headers }) => {
  const form = await changeForm(workspaceId, params.formId, parseIfMatch(headers), (current) =>
    toggleOther(current, indexOfElement(current, params.elementId), body));
  return { data: form.elements[indexOfElement(form, params.elementId)] };
});
