import {
  APIGatewayClient, ConflictException, CreateApiKeyCommand, CreateUsagePlanCommand, CreateUsagePlanKeyCommand, GetApiKeysCommand,
  UpdateUsagePlanCommand, paginateGetUsagePlans, type PatchOperation, type UsagePlan,
} from '@aws-sdk/client-api-gateway';
import { usagePlanKeyOf, usagePlanNameOf } from '../../shared/auth/usage-plan-keys.js';
import type { RateLimit } from '../../shared/http/rate-limits.js';

/** The deployed API stage whose usage plans the admin CLI manages (outputs `RestApiId`, `StageName`). */
export interface ApiStageTarget {
  readonly restApiId: string;
  readonly stage: string;
}

export interface AppliedUsagePlan {
  readonly apiKeyId: string;
  readonly usagePlanId: string;
  /** True when this run created the plan (a new workspace, or one created before usage plans). */
  readonly created: boolean;
}

/** Variables naming the stage, for `--aws` (printed by `npm run deploy` as stack outputs). */
export const STAGE_TARGET_VARIABLES = { restApiId: 'REST_API_ID', stage: 'API_STAGE' } as const;

/** The stage named by REST_API_ID and API_STAGE, or undefined when either is missing. */
export function stageTargetFromEnv(env: NodeJS.ProcessEnv = process.env): ApiStageTarget | undefined {
  const restApiId = env[STAGE_TARGET_VARIABLES.restApiId]?.trim();
  const stage = env[STAGE_TARGET_VARIABLES.stage]?.trim();
  return restApiId && stage ? { restApiId, stage } : undefined;
}

async function findOrCreateApiKey(client: APIGatewayClient, target: ApiStageTarget, workspaceId: string): Promise<string> {
  const { name, value } = usagePlanKeyOf(target.stage, workspaceId);
  const { items } = await client.send(new GetApiKeysCommand({ nameQuery: name, limit: 500 }));
  const existing = items?.find((key) => key.name === name);
  if (existing?.id) return existing.id;
  const created = await client.send(new CreateApiKeyCommand({
    name,
    value,
    enabled: true,
    description: `Usage identity of Boxoffice workspace ${workspaceId} (${target.stage}); returned by the authorizer, never a credential.`,
  }));
  return created.id as string;
}

async function findUsagePlan(client: APIGatewayClient, name: string): Promise<UsagePlan | undefined> {
  for await (const page of paginateGetUsagePlans({ client }, { limit: 500 })) {
    const plan = page.items?.find((candidate) => candidate.name === name);
    if (plan) return plan;
  }
  return undefined;
}

/**
 * Gives a workspace its API Gateway API key and usage plan on the stage with these limits, or updates
 * the plan's limits in place. Safe to run again at any point: every step looks for what an earlier,
 * interrupted run left (the key by name, the plan by name, the key already in the plan).
 */
export async function applyUsagePlan(client: APIGatewayClient, target: ApiStageTarget, workspaceId: string, limits: RateLimit): Promise<AppliedUsagePlan> {
  const apiKeyId = await findOrCreateApiKey(client, target, workspaceId);
  const name = usagePlanNameOf(target.stage, workspaceId);
  const plan = await findUsagePlan(client, name);
  let usagePlanId: string;
  if (plan?.id) {
    usagePlanId = plan.id;
    const patchOperations: PatchOperation[] = [
      { op: 'replace', path: '/throttle/rateLimit', value: String(limits.rate) },
      { op: 'replace', path: '/throttle/burstLimit', value: String(limits.burst) },
    ];
    const onStage = plan.apiStages?.some((apiStage) => apiStage.apiId === target.restApiId && apiStage.stage === target.stage);
    if (!onStage) patchOperations.push({ op: 'add', path: '/apiStages', value: `${target.restApiId}:${target.stage}` });
    await client.send(new UpdateUsagePlanCommand({ usagePlanId, patchOperations }));
  } else {
    const created = await client.send(new CreateUsagePlanCommand({
      name,
      description: `Request limits of Boxoffice workspace ${workspaceId} (${target.stage})`,
      throttle: { rateLimit: limits.rate, burstLimit: limits.burst },
      apiStages: [{ apiId: target.restApiId, stage: target.stage }],
    }));
    usagePlanId = created.id as string;
  }
  try {
    await client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: apiKeyId, keyType: 'API_KEY' }));
  } catch (error) {
    // Already in the plan (a second run, or a limits change).
    if (!(error instanceof ConflictException)) throw error;
  }
  return { apiKeyId, usagePlanId, created: !plan };
}

/** The API Gateway client of the admin CLI: region and credentials from the usual AWS settings. */
export function apiGatewayClient(): APIGatewayClient {
  return new APIGatewayClient({});
}
