import { implement } from '../../shared/http/operation.js';
import { responsesRoutes } from '../../shared/http/routes/responses.js';
import { readFormResponse } from '../../shared/responses/responses-service.js';

export const getFormResponse = implement(responsesRoutes.getFormResponse, async ({ workspaceId, params }) => ({
  data: await readFormResponse(workspaceId, params.formId, params.responseId),
}));
