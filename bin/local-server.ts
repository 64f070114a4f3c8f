/**
 * `npm start`: DynamoDB Local (unless DYNAMODB_ENDPOINT points at a running DynamoDB), the tables,
 * a seeded demo workspace, and the API on http://127.0.0.1:3000.
 *
 * Options, after one `--`: --data-dir DIR (keep data between runs), --verbose (log the seeding requests). Env: PORT, DYNAMODB_PORT, DYNAMODB_ENDPOINT, TABLE_NAME.
 */
import { parseArgs } from 'node:util';
import { JavaMissingError, startDynamoDbLocal, waitUntilReady } from './local/dynamodb-local.js';
import { applyLocalEnvironment, DEFAULT_DYNAMODB_PORT } from './local/environment.js';
import { ensureTables } from './local/bootstrap.js';
import { localWebhookSecretsKey } from './local/webhooks/local-secrets-key.js';
import { assertPortFree, PortInUseError } from './local/ports.js';

/** How often `npm start` moves ended events from upcoming to past in the partner listing. */
const LOCAL_SWEEP_INTERVAL_MS = 10_000;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, verbose: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help) {
    console.log([
      'Usage: npm start [-- [--data-dir DIR] [--verbose]]',
      '  --data-dir DIR  keep the data between runs',
      '  --verbose       also log the requests that seed the demo workspace',
      'Env: PORT (3000), DYNAMODB_PORT (8000), DYNAMODB_ENDPOINT, TABLE_NAME (boxoffice-local)',
    ].join('\n'));
    return;
  }
  const port = Number(process.env.PORT || 3000);
  // Both ports are checked before anything starts: a taken port stops us with nothing written anywhere.
  await assertPortFree(port, 'the API', 'PORT');
  let endpoint = process.env.DYNAMODB_ENDPOINT;
  if (endpoint) {
    await waitUntilReady(endpoint, 10_000);
  } else {
    const dynamoPort = Number(process.env.DYNAMODB_PORT || DEFAULT_DYNAMODB_PORT);
    await assertPortFree(dynamoPort, 'DynamoDB Local', 'DYNAMODB_PORT', `, or share the DynamoDB already there with DYNAMODB_ENDPOINT=http://127.0.0.1:${dynamoPort}`);
    const dynamo = await startDynamoDbLocal({ port: dynamoPort, dataDir: values['data-dir'] });
    endpoint = dynamo.endpoint;
  }
  process.env.EXPOSE_DB_STATS ??= 'true';
  process.env.LOCAL_DATA_DIR ??= values['data-dir'] ?? '';
  process.env.WEBHOOK_SECRETS_LOCAL_KEY ??= localWebhookSecretsKey(values['data-dir']);
  const env = applyLocalEnvironment({ endpoint });
  await ensureTables(env.endpoint, env.tableName, env.idempotencyTableName);

  // Runtime modules read the environment at import time, so they load only now.
  const { startLocalServer } = await import('./local/server.js');
  const { localRoutes } = await import('./local/local-routes.js');
  const { ensureDemoWorkspace } = await import('./local/demo-workspace.js');
  const { createSeedClient } = await import('./local/seed/seed-client.js');
  const { seeders } = await import('./local/seed/index.js');

  const server = await startLocalServer({ port, localRoutes });
  // So that `npm run admin -- key revoke` finds this server from the DynamoDB it shares, whatever PORT.
  const { forgetRunningApi, recordRunningApi } = await import('./local/running-apis.js');
  recordRunningApi(env.endpoint as string, server.url);
  process.on('exit', () => forgetRunningApi(env.endpoint as string, server.url));
  // AWS runs the refund reconciler from an EventBridge schedule every minute; locally, a timer does.
  const { handler: reconcileRefunds } = await import('../functions/refund-reconciler/handler.js');
  const { lambdaContext } = await import('./local/api-gateway-event.js');
  const { FUNCTION_TIMEOUT_MS } = await import('../shared/db/time-budget.js');
  setInterval(() => {
    reconcileRefunds({} as Parameters<typeof reconcileRefunds>[0], lambdaContext('boxoffice-refund-reconciler', 'local-schedule', FUNCTION_TIMEOUT_MS.reconciler))
      .catch((error: unknown) => console.error('Refund reconciler run failed', error));
  }, 60_000).unref();
  // Deployed, EventBridge runs the event end sweeper every minute; locally it runs here, more often.
  const { handler: sweepEndedEvents } = await import('../functions/event-end-sweeper/handler.js');
  setInterval(() => {
    sweepEndedEvents({} as Parameters<typeof sweepEndedEvents>[0], lambdaContext('boxoffice-event-end-sweeper', 'local-schedule', FUNCTION_TIMEOUT_MS.sweeper))
      .catch((error: unknown) => console.error('Event end sweep failed:', error instanceof Error ? error.message : error));
  }, LOCAL_SWEEP_INTERVAL_MS).unref();
  // Webhook delivery with the deployed code: DynamoDB Local's stream -> dispatcher -> local queue -> sender.
  const { startLocalWebhooks } = await import('./local/webhooks/local-webhooks.js');
  await startLocalWebhooks({ endpoint: env.endpoint as string, tableName: env.tableName, startAt: 'TRIM_HORIZON' });
  const demo = await ensureDemoWorkspace();
  if (demo.created) {
    // Seeding makes ~50 API requests; their request logs would bury the banner (--verbose keeps them).
    const { logger } = await import('../shared/logger.js');
    if (!values.verbose) logger.setLogLevel('WARN');
    const client = createSeedClient(server.url, demo.workspaceId, demo.apiKey);
    for (const seeder of seeders) await seeder.seed(client);
    logger.setLogLevel((process.env.POWERTOOLS_LOG_LEVEL ?? 'INFO') as Parameters<typeof logger.setLogLevel>[0]);
  }
  const { startBanner } = await import('./local/banner.js');
  console.log(startBanner({ url: server.url, endpoint: env.endpoint, tableName: env.tableName, demo, nodeVersion: process.version }));
}

main().catch((error: unknown) => {
  if (error instanceof JavaMissingError || error instanceof PortInUseError) console.error(error.message);
  else console.error('npm start failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
