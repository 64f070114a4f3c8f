import type { RouteDefinition, RouteGroup } from './route.js';
import type { Operation } from './operation.js';
import { systemRoutes } from './routes/system.js';
import { docsRoutes, widgetRoutes } from './routes/docs.js';
import { formsRoutes } from './routes/forms.js';
import { propertiesRoutes } from './routes/properties.js';
import { contactsRoutes } from './routes/contacts.js';
import { eventsRoutes } from './routes/events.js';
import { partnerRoutes } from './routes/partner.js';
import { imagesRoutes } from './routes/images.js';
import { checkoutsRoutes } from './routes/checkouts.js';
import { invoicesRoutes } from './routes/invoices.js';
import { payoutsRoutes } from './routes/payouts.js';
import { responsesRoutes } from './routes/responses.js';
import { webhooksRoutes } from './routes/webhooks.js';

/**
 * THE route table: every route of the API, data only (no handler code). The CDK stack builds one
 * function per group and one API method per row from it, each group handler dispatches from it, the
 * local server mounts it, and the OpenAPI document is generated from it.
 */
export const routeTable: readonly RouteDefinition[] = [
  systemRoutes,
  docsRoutes,
  widgetRoutes,
  formsRoutes,
  propertiesRoutes,
  contactsRoutes,
  eventsRoutes,
  partnerRoutes,
  imagesRoutes,
  checkoutsRoutes,
  invoicesRoutes,
  payoutsRoutes,
  responsesRoutes,
  webhooksRoutes,
].flatMap((group) => Object.values(group) as RouteDefinition[]);

export function routesOfGroup(group: RouteGroup): RouteDefinition[] {
  return routeTable.filter((route) => route.group === group);
}

/** Groups that have at least one route: exactly the groups that get a Lambda function. */
export function activeGroups(): RouteGroup[] {
  return [...new Set(routeTable.map((route) => route.group))];
}

/**
 * Every route of the group has exactly one operation and every operation a route; else it throws.
 * Run by a unit test for every group, not at cold start: a group's bundle does not contain the table.
 */
export function checkGroupCoverage(group: RouteGroup, operations: readonly Operation[]): void {
  const expected = new Set(routesOfGroup(group).map((route) => route.operation));
  const actual = new Set(operations.map((operation) => operation.route.operation));
  const missing = [...expected].filter((name) => !actual.has(name));
  const extra = [...actual].filter((name) => !expected.has(name));
  if (missing.length > 0 || extra.length > 0 || actual.size !== operations.length) {
    throw new Error(`Group ${group}: routes without operation [${missing.join(', ')}], operations without route [${extra.join(', ')}]`);
  }
}
