import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { indexOfElement, moveElement } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';
import { parseIfMatch } from '../../shared/http/if-match.js';

export const moveFormElement = implement(formsRoutes.moveFormElement, async ({ workspaceId, params, body, headers }) => ({
  data: await changeForm(workspaceId, params.formId, parseIfMatch(headers), (current) =>
    moveElement(current, indexOfElement(current, params.elementId), body.section)),
}));
