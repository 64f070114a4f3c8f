import { createGroupHandler } from '../../shared/http/group-handler.js';
import type { Operation } from '../../shared/http/operation.js';

export const operations: Operation[] = [];
export const handler = createGroupHandler('partner', operations);
