import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { indexOfElement, patchElement } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';

export const updateFormElement = implement(formsRoutes.updateFormElement, async ({ workspaceId, params, body, ifMatch }) => {
  const form = await changeForm(workspaceId, params.formId, ifMatch, (current) =>
    patchElement(current, indexOfElement(current, params.elementId), body));
  return { data: form.elements[indexOfElement(form, params.elementId)] };
});
