import { implement } from '../../shared/http/operation.js';
import { responsesRoutes } from '../../shared/http/routes/responses.js';
import { submitResponse } from '../../shared/responses/responses-service.js';

export const submitFormResponse = implement(responsesRoutes.submitFormResponse, async ({ params, body }) => ({
  data: await submitResponse(params.formId, body),
}));
