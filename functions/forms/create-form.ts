import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { createNewForm } from '../../shared/forms/forms-service.js';

export const createForm = implement(formsRoutes.createForm, async ({ workspaceId, body }) => ({
  data: await createNewForm(workspaceId, body),
}));
