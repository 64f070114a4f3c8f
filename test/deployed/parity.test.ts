import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../bin/local/server.js';
import { localRoutes } from '../../bin/local/local-routes.js';
import { DEMO_PARTNER_CODE } from '../../bin/local/seed/events.js';
import { matchPath } from '../../shared/http/route.js';
import { activeGroups, routeTable } from '../../shared/http/routes.js';
import { flows } from './flows/index.js';
import { compareRuns, runFlow, type FlowRun } from './support/flows.js';
import { deployAssembly, type DeployedApi } from './support/deployed-api.js';
import { createDeployedTenants, createTenants, uniqueCode, type Tenant } from './support/tenants.js';

let deployed: DeployedApi;
let local: LocalServer;
let localTenants: Tenant[];
let deployedTenants: Tenant[];
const deployedRuns: FlowRun[] = [];

beforeAll(async () => {
  deployed = await deployAssembly({ assemblyDir: inject('assemblyDir'), dynamoEndpoint: inject('dynamoEndpoint') });
  local = await startLocalServer({ port: 0, localRoutes });
  const names = flows.map((flow) => flow.name);
  const codes = [...flows.map(() => uniqueCode('TIER')), DEMO_PARTNER_CODE];
  const table = [...deployed.tables.entries()].find(([logicalId]) => logicalId.startsWith('Table'))?.[1] as string;
  [localTenants, deployedTenants] = await Promise.all([
    createTenants(names, codes),
    createDeployedTenants(table, inject('dynamoEndpoint'), names, codes),
  ]);
});

afterAll(async () => {
  await local?.close();
  await deployed?.close();
});

describe('the synthesized app, deployed onto this machine', () => {
  it.each(flows.map((flow, index) => [flow.name, index] as const))('%s: answers like the local server', async (_name, index) => {
    // Prepare
    const flow = flows[index]!;

    // Act
    // One after the other: side by side they would compete for the two cores (and DynamoDB Local's
    // 1 s request timeout), turning a loaded machine's slowness into 503s that are not divergences.
    const localRun = await runFlow(flow, { environment: 'local', baseUrl: local.url, tenant: localTenants[index]! });
    const deployedRun = await runFlow(flow, { environment: 'deployed', baseUrl: deployed.url, tenant: deployedTenants[index]! });

    deployedRuns.push(deployedRun);

    // Assess
    expect(deployedRun.exchanges.length).toBeGreaterThan(3);
    expect(compareRuns(localRun, deployedRun)).toEqual([]);
  });

  it('reached every endpoint group of the route table through the flows (a new group needs a flow)', () => {
    // Act: the group of every route a deployed request matched.
    const reached = new Set(deployedRuns.flatMap((run) => run.exchanges).flatMap((exchange) => {
      const [method, path] = exchange.request.split(' ') as [string, string];
      return routeTable.filter((route) => route.method === method && matchPath(route.path, path)).map((route) => route.group);
    }));

    // Assess
    expect(activeGroups().filter((group) => !reached.has(group))).toEqual([]);
  });

  it('sent the two-step uploads to S3 with presigned PUTs, and copied them into the images bucket server-side', () => {
    // Act
    const operations = deployed.s3.log;

    // Assess
    expect(operations).toEqual(expect.arrayContaining([
      expect.stringMatching(/^PUT [^/]*imageuploadsbucket[^/]*\/uploads\/[a-f0-9]{24}\/[a-f0-9]{24}\.png$/),
      expect.stringMatching(/^PUT [^/]*imagesbucket[^/]*\/images\/[a-f0-9]{32}\/[a-f0-9]{24}\.png from [^ ]*imageuploadsbucket/),
      expect.stringMatching(/^DELETE [^/]*imageuploadsbucket/),
    ]));
  });

  it('encrypted the webhook secrets with the template\'s KMS key, in signed calls', () => {
    // Act
    const operations = deployed.kms.log;

    // Assess: create and rotate, each one Encrypt with the key the stack hands the webhooks function.
    expect(operations.filter((operation) => operation.startsWith('Encrypt arn:aws:kms:us-east-1:123456789012:key/'))).toHaveLength(2);
  });

  it('caches the authorizer\'s answer per Authorization header for the template\'s TTL', async () => {
    // Prepare
    const before = deployed.gateway.authorizerInvocations;
    const tenant = deployedTenants[0]!;

    // Act
    for (let i = 0; i < 3; i += 1) await fetch(`${deployed.url}/v1/`, { headers: { Authorization: `Bearer ${tenant.readOnlyKey}` } });

    // Assess
    expect(deployed.gateway.authorizerInvocations - before).toBeLessThanOrEqual(1);
  });
});
