import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { deleteElement, indexOfElement } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';

export const deleteFormElement = implement(formsRoutes.deleteFormElement, async ({ workspaceId, params, ifMatch }) => {
  await changeForm(workspaceId, params.formId, ifMatch, (current) =>
    deleteElement(current, indexOfElement(current, params.elementId)));
  return undefined;
});
