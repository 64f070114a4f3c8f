import * as z from 'zod';
import { defineRoute } from '../route.js';
import { lazy } from '../../model/lazy-schema.js';
import { dateTimeSchema } from '../../model/primitives.js';

export const healthResponseSchema = lazy(() => z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    timestamp: dateTimeSchema,
    db: z.enum(['connected', 'disconnected']),
  })
  .meta({ id: 'Health' }));

export const apiInfoResponseSchema = lazy(() => z
  .object({
    api: z.string(),
    version: z.string(),
    docs: z.string().meta({ description: 'Absolute URL of the interactive API documentation.' }),
  })
  .meta({ id: 'ApiInfo' }));

export const systemRoutes = {
  health: defineRoute({
    group: 'system',
    operation: 'getHealth',
    method: 'GET',
    path: '/health',
    auth: 'public',
    tags: ['System'],
    summary: 'Health check',
    description: 'No key needed. `db` is one cheap DynamoDB read with a short timeout; `status` is `degraded` when it fails. Always 200 so that probes read the body.',
    success: { status: 200, description: 'Service health.', schema: healthResponseSchema },
  }),
  apiInfo: defineRoute({
    group: 'system',
    operation: 'getApiInfo',
    method: 'GET',
    path: '/v1',
    auth: 'key',
    tags: ['System'],
    summary: 'API information',
    success: { status: 200, description: 'API name, version and documentation URL.', schema: apiInfoResponseSchema },
    errors: [401],
  }),
};
