import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { deleteElement, indexOfElement } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';
import { ifMatchVersion } from './if-match.js';

export const deleteFormElement = implement(formsRoutes.deleteFormElement, async ({ workspaceId, params, headers }) => {
  await changeForm(workspaceId, params.formId, ifMatchVersion(headers), (current) =>
    deleteElement(current, indexOfElement(current, params.elementId)));
  return undefined;
});
