import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { indexOfElement, toggleOther } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';
import { ifMatchVersion } from './if-match.js';

export const toggleElementOther = implement(formsRoutes.toggleElementOther, async ({ workspaceId, params, body, headers }) => {
  const form = await changeForm(workspaceId, params.formId, ifMatchVersion(headers), (current) =>
    toggleOther(current, indexOfElement(current, params.elementId), body));
  return { data: form.elements[indexOfElement(form, params.elementId)] };
});
