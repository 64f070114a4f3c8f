import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import type { Operation } from '../../shared/http/operation.js';
import { getFormResponse } from './get-form-response.js';
import { getPublicForm } from './get-public-form.js';
import { listFormResponses } from './list-form-responses.js';
import { submitFormResponse } from './submit-form-response.js';

export const operations: Operation[] = [getPublicForm, submitFormResponse, listFormResponses, getFormResponse];
export const handler = createGroupHandler('responses', operations, { idempotency: runIdempotent });
