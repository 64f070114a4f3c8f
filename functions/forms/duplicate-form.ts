import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { duplicateForm as copyOf } from '../../shared/forms/form-operations.js';
import { insertForm, loadForm } from '../../shared/forms/forms-service.js';

export const duplicateForm = implement(formsRoutes.duplicateForm, async ({ workspaceId, params, body }) => {
  const original = await loadForm(workspaceId, params.formId);
  return { data: await insertForm(workspaceId, copyOf(original, body, new Date())) };
});
