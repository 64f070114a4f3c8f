import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { indexOfElement, removeLogicRule as removeRule } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';

export const removeLogicRule = implement(formsRoutes.removeLogicRule, async ({ workspaceId, params, ifMatch }) => {
  const form = await changeForm(workspaceId, params.formId, ifMatch, (current) =>
    removeRule(current, indexOfElement(current, params.elementId), params.revealedElementId));
  return { data: form.elements[indexOfElement(form, params.elementId)] };
});
