import { createGroupHandler } from '../../shared/http/group-handler.js';
import { listPartnerEventsOperation } from './list-partner-events.js';

export const operations = [listPartnerEventsOperation];
export const handler = createGroupHandler('partner', operations);
