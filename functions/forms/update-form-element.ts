import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { inElementTerms, indexOfElement, patchElement } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';

export const updateFormElement = implement(formsRoutes.updateFormElement, async ({ workspaceId, params, body, ifMatch }) => {
  let patched = -1;
  const form = await changeForm(workspaceId, params.formId, ifMatch, (current) => {
    patched = indexOfElement(current, params.elementId);
    return patchElement(current, patched, body);
  }).catch((error: unknown) => { throw inElementTerms(error, patched); });
  return { data: form.elements[indexOfElement(form, params.elementId)] };
});
