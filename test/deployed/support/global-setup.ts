import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../../bin/local/dynamodb-local.js';
import { ensureTables } from '../../../bin/local/bootstrap.js';
import { freePort } from '../../../bin/local/ports.js';

declare module 'vitest' {
  export interface ProvidedContext {
    assemblyDir: string;
    dynamoEndpoint: string;
  }
}


/**
 * Synthesizes the app once per run exactly as `cdk synth` does (cdk-nag on, every function bundled by
 * esbuild), and starts one DynamoDB Local. Test files deploy the assembly onto it with their own table
 * names, and run the local server beside it for comparison.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The local server's side of the comparison runs in the test workers, on the bootstrap's tables.
  // Set first: the stacks import the route table, whose modules may load the DynamoDB client.
  process.env.TABLE_NAME = 'boxoffice-deployed-local';
  process.env.IDEMPOTENCY_TABLE_NAME = 'boxoffice-deployed-local-idempotency';
  process.env.AWS_REGION = 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID = 'local';
  process.env.AWS_SECRET_ACCESS_KEY = 'local';

  const [{ App }, { buildBoxoffice }] = await Promise.all([import('aws-cdk-lib'), import('../../../lib/boxoffice-app.js')]);
  const assemblyDir = mkdtempSync(join(tmpdir(), 'boxoffice-deployed-'));
  const app = new App({ outdir: assemblyDir });
  buildBoxoffice(app, { stage: 'dev' });
  app.synth();

  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  await ensureTables(dynamo.endpoint, process.env.TABLE_NAME, process.env.IDEMPOTENCY_TABLE_NAME);
  project.provide('assemblyDir', assemblyDir);
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return async () => {
    await dynamo.stop();
    rmSync(assemblyDir, { recursive: true, force: true });
  };
}
