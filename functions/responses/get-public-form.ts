import { implement } from '../../shared/http/operation.js';
import { responsesRoutes } from '../../shared/http/routes/responses.js';
import { readActiveForm } from '../../shared/forms/forms-service.js';
import { toPublicForm } from '../../shared/forms/public-form.js';

export const getPublicForm = implement(responsesRoutes.getPublicForm, async ({ params }) => ({
  data: toPublicForm((await readActiveForm(params.formId)).form),
}));
