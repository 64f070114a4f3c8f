import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { RouteGroup } from '../../shared/http/route.js';
import { ensureLocalOpenApiDocument } from './openapi-document.js';

export type GroupHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type HandlerModule = { handler: GroupHandler };

/**
 * Each group's Lambda entry (`functions/<group>/handler.ts`, the file CDK bundles), loaded lazily so
 * that the environment is set before any runtime module reads it.
 */
export const groupHandlerModules: Record<RouteGroup, () => Promise<HandlerModule>> = {
  system: () => import('../../functions/system/handler.js'),
  docs: async () => {
    await ensureLocalOpenApiDocument();
    return import('../../functions/docs/handler.js');
  },
  forms: () => import('../../functions/forms/handler.js'),
  properties: () => import('../../functions/properties/handler.js'),
  contacts: () => import('../../functions/contacts/handler.js'),
  events: () => import('../../functions/events/handler.js'),
  partner: () => import('../../functions/partner/handler.js'),
  images: () => import('../../functions/images/handler.js'),
  checkouts: () => import('../../functions/checkouts/handler.js'),
  invoices: () => import('../../functions/invoices/handler.js'),
  payouts: () => import('../../functions/payouts/handler.js'),
  responses: () => import('../../functions/responses/handler.js'),
  webhooks: () => import('../../functions/webhooks/handler.js'),
};
