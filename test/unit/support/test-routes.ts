import * as z from 'zod';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../shared/db/client.js';
import { ValidationError } from '../../../shared/errors.js';
import { implement } from '../../../shared/http/operation.js';
import { defineRoute } from '../../../shared/http/route.js';
import { idParams, intQuery } from '../../../shared/http/schemas.js';

/** Test-only routes, registered only in tests, that exercise every feature of the operation layer. */
export const echoRoute = defineRoute({
  group: 'system',
  operation: 'testEcho',
  method: 'POST',
  path: '/v1/test-things/{thingId}',
  auth: 'key',
  tags: ['Test'],
  summary: 'Echo (test only)',
  params: idParams('thingId'),
  query: z.strictObject({ count: intQuery({ min: 1, max: 10, default: 1 }) }),
  body: z.object({
    name: z.string().min(1),
    items: z.array(z.object({ amount: z.number().int() })).default([]),
    fail: z.boolean().optional(),
    delayMs: z.number().int().max(2_000).optional(),
  }),
  success: { status: 201, description: 'Echoed.' },
});

export const versionedRoute = defineRoute({
  group: 'system',
  operation: 'testVersioned',
  method: 'PATCH',
  path: '/v1/test-things/{thingId}',
  auth: 'key',
  tags: ['Test'],
  summary: 'Versioned update (test only)',
  params: idParams('thingId'),
  body: z.object({}),
  ifMatch: true,
  success: { status: 200, description: 'Echoes the If-Match version.' },
});

export const versionedOperation = implement(versionedRoute, async ({ ifMatch }) => ({ data: { ifMatch: ifMatch ?? null } }));

export const readRoute = defineRoute({
  group: 'system',
  operation: 'testRead',
  method: 'GET',
  path: '/v1/test-things/{thingId}',
  auth: 'key',
  tags: ['Test'],
  summary: 'Read (test only)',
  params: idParams('thingId'),
  success: { status: 200, description: 'Read.' },
});

export const actionRoute = defineRoute({
  group: 'system',
  operation: 'testAction',
  method: 'POST',
  path: '/v1/test-things/{thingId}/act',
  auth: 'key',
  tags: ['Test'],
  summary: 'Body-less action (test only)',
  params: idParams('thingId'),
  success: { status: 200, description: 'Acted.' },
});

export const counters = { echo: 0, action: 0 };

export const actionOperation = implement(actionRoute, async ({ params }) => {
  counters.action += 1;
  return { data: { thingId: params.thingId, run: counters.action } };
});

export const echoOperation = implement(echoRoute, async ({ params, query, body, workspaceId }) => {
  counters.echo += 1;
  if (body.delayMs) await new Promise((done) => setTimeout(done, body.delayMs));
  if (body.fail) throw new ValidationError({ path: 'fail', message: 'asked to fail' });
  return { data: { thingId: params.thingId, count: query.count, name: body.name, items: body.items, workspaceId, run: counters.echo } };
});

export const readOperation = implement(readRoute, async ({ params, workspaceId }) => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: { PK: `WS#${workspaceId}#THINGS`, SK: params.thingId } }));
  return { data: Item ?? null };
});
