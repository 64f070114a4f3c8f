import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { indexOfElement, patchElement } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';
import { parseIfMatch } from '../../shared/http/if-match.js';

export const updateFormElement = implement(formsRoutes.updateFormElement, async ({ workspaceId, params, body, headers }) => {
  const form = await changeForm(workspaceId, params.formId, parseIfMatch(headers), (current) =>
    patchElement(current, indexOfElement(current, params.elementId), body));
  return { data: form.elements[indexOfElement(form, params.elementId)] };
});
