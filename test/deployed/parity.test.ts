import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../bin/local/server.js';
import { localRoutes } from '../../bin/local/local-routes.js';
import { DEMO_PARTNER_CODE } from '../../bin/local/seed/events.js';
import { flows } from './flows/index.js';
import { compareRuns, runFlow } from './support/flows.js';
import { deployAssembly, type DeployedApi } from './support/deployed-api.js';
import { createDeployedTenants, createTenants, uniqueCode, type Tenant } from './support/tenants.js';

let deployed: DeployedApi;
let local: LocalServer;
let localTenants: Tenant[];
let deployedTenants: Tenant[];

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
    const [localRun, deployedRun] = await Promise.all([
      runFlow(flow, { environment: 'local', baseUrl: local.url, tenant: localTenants[index]! }),
      runFlow(flow, { environment: 'deployed', baseUrl: deployed.url, tenant: deployedTenants[index]! }),
    ]);

    // Assess
    expect(deployedRun.exchanges.length).toBeGreaterThan(3);
    expect(compareRuns(localRun, deployedRun)).toEqual([]);
  });

  it('sent the two-step uploads to S3 with presigned PUTs, and copied them into the images bucket server-side', () => {
    // Act
    const operations = deployed.s3.log;

    // Assess
    expect(operations).toEqual(expect.arrayContaining([
      expect.stringMatching(/^PUT [^/]*imageuploadsbucket[^/]*\/uploads\/[a-f0-9]{24}\/[a-f0-9]{24}\.png$/),
      expect.stringMatching(/^PUT [^/]*imagesbucket[^/]*\/images\/[a-f0-9]{24}\/[a-f0-9]{24}\.png from [^ ]*imageuploadsbucket/),
      expect.stringMatching(/^DELETE [^/]*imageuploadsbucket/),
    ]));
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
