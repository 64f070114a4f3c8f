import { createGroupHandler } from '../../shared/http/group-handler.js';
import type { Operation } from '../../shared/http/operation.js';
import { submitFormResponse } from './submit-form-response.js';

export const operations: Operation[] = [submitFormResponse];
export const handler = createGroupHandler('responses', operations);
