import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { addLogicRule as addRule, indexOfElement } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';

export const addLogicRule = implement(formsRoutes.addLogicRule, async ({ workspaceId, params, body, ifMatch }) => {
  const form = await changeForm(workspaceId, params.formId, ifMatch, (current) =>
    addRule(current, indexOfElement(current, params.elementId), body));
  return { data: form.elements[indexOfElement(form, params.elementId)] };
});
