import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { replaceLayout } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';

export const replaceFormLayout = implement(formsRoutes.replaceFormLayout, async ({ workspaceId, params, body, ifMatch }) => ({
  data: await changeForm(workspaceId, params.formId, ifMatch, (form) => replaceLayout(form, body)),
}));
