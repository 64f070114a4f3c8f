import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { readForm } from '../../shared/forms/forms-service.js';

export const getForm = implement(formsRoutes.getForm, async ({ workspaceId, params }) => ({
  data: await readForm(workspaceId, params.formId),
}));
