import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../bin/local/server.js';
import { localRoutes } from '../../bin/local/local-routes.js';
import { paddedPng } from '../../shared/images/sample-images.js';
import { imagesAndCheckoutsFlow } from './flows/images-and-checkouts.js';
import { systemAndGatewayFlow } from './flows/system-and-gateway.js';
import { compareRuns, runFlow, type Flow } from './support/flows.js';
import { deployAssembly, type DeployOptions } from './support/deployed-api.js';
import type { StackArtifact } from './support/deployment.js';
import { createDeployedTenants, createTenants, uniqueCode } from './support/tenants.js';

// The tier's own test: a deliberately broken template must make it fail, with a report naming the break.
let local: LocalServer;

beforeAll(async () => {
  local = await startLocalServer({ port: 0, localRoutes });
});
afterAll(async () => local?.close());

/** Deploys the synthesized app with `mutate` applied to its templates, runs `flow` on it and locally. */
async function differencesWith(mutate: DeployOptions['mutate'], flow: Flow): Promise<string[]> {
  const deployed = await deployAssembly({ assemblyDir: inject('assemblyDir'), dynamoEndpoint: inject('dynamoEndpoint'), mutate });
  try {
    const codes = [uniqueCode('TIER')];
    const table = [...deployed.tables.entries()].find(([logicalId]) => logicalId.startsWith('Table'))?.[1] as string;
    const [[localTenant], [deployedTenant]] = await Promise.all([
      createTenants([flow.name], codes),
      createDeployedTenants(table, inject('dynamoEndpoint'), [flow.name], codes),
    ]);
    // One after the other, as in parity.test.ts: a loaded machine's 503s are not divergences.
    const localRun = await runFlow(flow, { environment: 'local', baseUrl: local.url, tenant: localTenant! });
    const deployedRun = await runFlow(flow, { environment: 'deployed', baseUrl: deployed.url, tenant: deployedTenant! });
    return compareRuns(localRun, deployedRun);
  } finally {
    await deployed.close();
  }
}

function apiStack(stacks: Map<string, StackArtifact>): StackArtifact {
  return [...stacks.values()].find((stack) => stack.stackName.endsWith('-Api')) as StackArtifact;
}

describe('the deployed-artifact tier', () => {
  it('fails when one function loses an environment variable in the stack (checkouts without the images settings)', async () => {
    // Prepare
    const removeImagesSettings = (stacks: Map<string, StackArtifact>) => {
      for (const resource of Object.values(apiStack(stacks).template.Resources)) {
        const variables = (resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
        if (variables?.POWERTOOLS_SERVICE_NAME !== 'boxoffice-checkouts') continue;
        delete variables.IMAGES_BUCKET;
        delete variables.IMAGES_BASE_URL;
      }
    };

    // Act
    const differences = await differencesWith(removeImagesSettings, imagesAndCheckoutsFlow);

    // Assess
    expect(differences).toEqual(expect.arrayContaining([expect.stringMatching(/^deployed: checkout eventImage .*\/_local\/blobs\/.* differs from the image url https:\/\/.*cloudfront/)]));
  });

  it('fails when a gateway response forces another status than the local server answers', async () => {
    // Prepare
    const forceUnauthorizedTo403 = (stacks: Map<string, StackArtifact>) => {
      for (const resource of Object.values(apiStack(stacks).template.Resources)) {
        if (resource.Type === 'AWS::ApiGateway::GatewayResponse' && resource.Properties?.ResponseType === 'UNAUTHORIZED') resource.Properties.StatusCode = '403';
      }
    };

    // Act
    const differences = await differencesWith(forceUnauthorizedTo403, systemAndGatewayFlow);

    // Assess
    expect(differences).toEqual(expect.arrayContaining([expect.stringMatching(/^api info without a key \(GET \/v1\/\): status local 401, deployed 403/)]));
  });

  it('fails when the edge firewall is missing: a 5 MiB single-request image then becomes a 5xx deployed', async () => {
    // Prepare
    const removeFirewall = (stacks: Map<string, StackArtifact>) => {
      const resources = apiStack(stacks).template.Resources;
      for (const [id, resource] of Object.entries(resources)) if (resource.Type === 'AWS::WAFv2::WebACLAssociation') delete resources[id];
    };
    const fiveMiB: Flow = {
      name: 'one 5 MiB image',
      async run({ call }) {
        await call('5 MiB in one request', 'POST', '/v1/assets/images?filename=five.png', { raw: paddedPng(64, 64, 5 * 1024 * 1024), headers: { 'Content-Type': 'image/png' } });
      },
    };

    // Act
    const differences = await differencesWith(removeFirewall, fiveMiB);

    // Assess
    expect(differences).toEqual(expect.arrayContaining([expect.stringMatching(/^5 MiB in one request \(POST \/v1\/assets\/images\): status local 413, deployed 5\d\d/)]));
  });

  it('agrees with the local server on the unmutated template (the control)', async () => {
    // Act
    const differences = await differencesWith(undefined, imagesAndCheckoutsFlow);

    // Assess
    expect(differences).toEqual([]);
  });
});
