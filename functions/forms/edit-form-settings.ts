import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { editSettings } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';
import { ifMatchVersion } from './if-match.js';

export const editFormSettings = implement(formsRoutes.editFormSettings, async ({ workspaceId, params, body, headers }) => ({
  data: await changeForm(workspaceId, params.formId, ifMatchVersion(headers), (form) => editSettings(form, body)),
}));
