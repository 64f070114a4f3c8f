import { createGroupHandler } from '../../shared/http/group-handler.js';
import { getApiInfo } from './get-api-info.js';
import { getHealth } from './get-health.js';

export const operations = [getHealth, getApiInfo];
export const handler = createGroupHandler('system', operations);
