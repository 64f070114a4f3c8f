import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { indexOfElement, moveElement } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';

export const moveFormElement = implement(formsRoutes.moveFormElement, async ({ workspaceId, params, body, ifMatch }) => ({
  data: await changeForm(workspaceId, params.formId, ifMatch, (current) =>
    moveElement(current, indexOfElement(current, params.elementId), body.section)),
}));
