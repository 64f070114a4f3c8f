import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { replaceLayout } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';
import { parseIfMatch } from '../../shared/http/if-match.js';

export const replaceFormLayout = implement(formsRoutes.replaceFormLayout, async ({ workspaceId, params, body, headers }) => ({
  data: await changeForm(workspaceId, params.formId, parseIfMatch(headers), (form) => replaceLayout(form, body)),
}));
