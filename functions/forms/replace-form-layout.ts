import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { replaceLayout } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';
import { ifMatchVersion } from './if-match.js';

export const replaceFormLayout = implement(formsRoutes.replaceFormLayout, async ({ workspaceId, params, body, headers }) => ({
  data: await changeForm(workspaceId, params.formId, ifMatchVersion(headers), (form) => replaceLayout(form, body)),
}));
