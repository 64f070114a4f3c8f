import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { editSettings } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';

export const editFormSettings = implement(formsRoutes.editFormSettings, async ({ workspaceId, params, body, ifMatch }) => ({
  data: await changeForm(workspaceId, params.formId, ifMatch, (form) => editSettings(form, body)),
}));
