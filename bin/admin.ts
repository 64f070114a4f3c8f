/**
 * `npm run admin -- <command>`: operator commands against the same table as `npm start` (or, with
 * `--aws`, the deployed table named by TABLE_NAME using your AWS credentials).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { applyLocalEnvironment } from './local/environment.js';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  workspace create --name NAME [--json]            create a workspace and its first read-write key
  workspace limits --workspace ID --rate N --burst N [--json]
                                                   set a workspace's request limits (requests/s, burst);
                                                   its requests get them within 5 seconds
  workspace usage-plans --aws [--json]             give every workspace its API Gateway usage plan with
                                                   its limits (after upgrading a stage; safe to rerun)
  key create --workspace ID [--read-only] [--json] mint another key for a workspace
  key revoke --key KEY [--json]                    revoke a key (requests with it get 401 at once: the
                                                   API's authorizer cache is flushed)
  key revoke --workspace ID --key-id KEY_ID [--json]
                                                   the same by the key's id (key list), without the key
  partner create --code CODE [--first-name ..] [--last-name ..] [--company-name ..] [--email ..] [--json]
  workspace list [--limit N] [--cursor C] [--json] the platform's workspaces, newest first
  key list --workspace ID [--limit N] [--cursor C] [--json]
                                                   a workspace's keys (id, scope, prefix, revoked), never the keys
  partner list [--limit N] [--cursor C] [--json]   the platform's partners, newest first
  backfill [--segments N] [--restart] [--json]      add derived items (list projections, index items) that
                                                   a newer data design expects to items written before it;
                                                   idempotent, safe beside live traffic, resumable

Lists print one page (default 50, at most 100) and the --cursor of the next one. Under --json, results
are one JSON object on stdout and errors one {"error":{"code","message"}} object on stderr (exit 1).
Every command takes --help. Targets DYNAMODB_ENDPOINT, else DynamoDB Local on 127.0.0.1:$DYNAMODB_PORT
(8000), table TABLE_NAME (boxoffice-local). Add --aws to use the real DynamoDB endpoint instead; with
--aws, workspace create and workspace limits also manage the workspace's usage plan on the API stage
named by REST_API_ID and API_STAGE (the Api stack's outputs RestApiId and StageName).`;

class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;
const common: Options = { json: { type: 'boolean' }, help: { type: 'boolean' }, aws: { type: 'boolean' } };

function parse(args: string[], options: Options, usage: string) {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...common, ...options }, allowPositionals: false, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed.values as Record<string, string | boolean | undefined>;
}

function required(values: Record<string, string | boolean | undefined>, name: string, usage: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`Missing --${name}.\n\n${usage}`);
  return value.trim();
}

/** A whole or decimal number option (`--rate 2.5`), or a usage error naming it. */
function numberOption(values: Record<string, string | boolean | undefined>, name: string, usage: string): number {
  const text = required(values, name, usage);
  if (!/^\d+(\.\d+)?$/.test(text)) throw new UsageError(`--${name} must be a number, e.g. --${name} 100.\n\n${usage}`);
  return Number(text);
}

/** The deployed stage of `--aws` commands that manage usage plans, or a usage error saying what to set. */
async function stageTarget(): Promise<import('./admin/usage-plans.js').ApiStageTarget> {
  const { STAGE_TARGET_VARIABLES, stageTargetFromEnv } = await import('./admin/usage-plans.js');
  const target = stageTargetFromEnv();
  if (!target) {
    throw new UsageError(`With --aws, set ${STAGE_TARGET_VARIABLES.restApiId} and ${STAGE_TARGET_VARIABLES.stage} to the Api stack's outputs RestApiId and StageName: each workspace has its own usage plan on that stage.`);
  }
  return target;
}

function output(values: Record<string, unknown>, json: boolean, lines: string[]): void {
  console.log(json ? JSON.stringify(values) : lines.join('\n'));
}

const listOptions: Options = { limit: { type: 'string' }, cursor: { type: 'string' } };

/** The page a list command asks for: `--limit` (1..100, default 50) and an optional `--cursor`. */
function pageRequest(values: Record<string, string | boolean | undefined>): { page: number; limit: number; cursor?: string } {
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError('--limit must be a whole number from 1 to 100.');
  return { page: 0, limit, ...(typeof values.cursor === 'string' ? { cursor: values.cursor } : {}) };
}

/** A list page: JSON `{data, nextCursor}`, or one aligned line per row and how to get the next page. */
function outputList<T>(page: { items: T[]; nextCursor: string | null }, json: boolean, row: (item: T) => string[], next: string): void {
  if (json) {
    console.log(JSON.stringify({ data: page.items, nextCursor: page.nextCursor }));
    return;
  }
  const rows = page.items.map(row);
  const widths = rows.reduce<number[]>((max, cells) => cells.map((cell, index) => Math.max(max[index] ?? 0, cell.length)), []);
  for (const cells of rows) console.log(cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join('  ').trimEnd());
  if (rows.length === 0) console.log('(none)');
  if (page.nextCursor) console.log(`More: ${next} --cursor ${page.nextCursor}`);
}

async function run(argv: string[]): Promise<void> {
  const [noun, verb, ...rest] = argv;
  if (!noun || noun === '--help' || noun === 'help') {
    console.log(USAGE);
    if (!noun) process.exitCode = 1;
    return;
  }
  const command = noun === 'backfill' ? 'backfill' : `${noun} ${verb ?? ''}`.trim();
  const env = () => applyLocalEnvironment({ useAws: argv.includes('--aws') });
  switch (command) {
    case 'workspace create': {
      const usage = 'Usage: npm run admin -- workspace create --name NAME [--json]';
      const values = parse(rest, { name: { type: 'string' } }, usage);
      const name = required(values, 'name', usage);
      const target = values.aws ? await stageTarget() : undefined;
      env();
      const { createWorkspace, createApiKey } = await import('../shared/workspaces/workspaces-repository.js');
      const workspace = await createWorkspace(name);
      if (target) {
        // Deployed, a workspace without its usage plan is refused on every /v1 route: the plan comes
        // before the key, and a failure says how to finish.
        const { applyUsagePlan, apiGatewayClient } = await import('./admin/usage-plans.js');
        const { DEFAULT_WORKSPACE_LIMITS } = await import('../shared/http/rate-limits.js');
        try {
          await applyUsagePlan(apiGatewayClient(), target, workspace.id, DEFAULT_WORKSPACE_LIMITS);
        } catch (error) {
          throw new Error(`workspace ${workspace.id} was created, but its usage plan was not (${(error as Error).message}); finish with: npm run admin -- workspace limits --workspace ${workspace.id} --rate ${DEFAULT_WORKSPACE_LIMITS.rate} --burst ${DEFAULT_WORKSPACE_LIMITS.burst} --aws, then key create`);
        }
      }
      const { apiKey } = await createApiKey(workspace.id, 'read_write');
      output({ workspaceId: workspace.id, apiKey }, Boolean(values.json), [
        `Workspace ${workspace.id} (${name}) created.`,
        `API key (shown once, store it now): ${apiKey}`,
      ]);
      return;
    }
    case 'workspace limits': {
      const usage = 'Usage: npm run admin -- workspace limits --workspace ID --rate N --burst N [--json]';
      const values = parse(rest, { workspace: { type: 'string' }, rate: { type: 'string' }, burst: { type: 'string' } }, usage);
      const workspaceId = required(values, 'workspace', usage);
      const limits = { rate: numberOption(values, 'rate', usage), burst: numberOption(values, 'burst', usage) };
      const { workspaceLimitsProblems } = await import('../shared/workspaces/workspace-model.js');
      const problems = workspaceLimitsProblems(limits);
      if (problems.length > 0) throw new UsageError(problems.map((problem) => `--${problem.path} ${problem.message}.`).join('\n'));
      const target = values.aws ? await stageTarget() : undefined;
      env();
      const { getWorkspace, setWorkspaceLimits } = await import('../shared/workspaces/workspaces-repository.js');
      const { NotFoundError } = await import('../shared/errors.js');
      if (!(await getWorkspace(workspaceId))) throw new NotFoundError('Workspace');
      // The usage plan first: the table then never claims limits the gateway does not apply.
      if (target) {
        const { applyUsagePlan, apiGatewayClient } = await import('./admin/usage-plans.js');
        await applyUsagePlan(apiGatewayClient(), target, workspaceId, limits);
      }
      await setWorkspaceLimits(workspaceId, limits);
      output({ workspaceId, ...limits }, Boolean(values.json), [
        `Workspace ${workspaceId}: ${limits.rate} requests/s, burst ${limits.burst}; its requests get them within 5 seconds.`,
      ]);
      return;
    }
    case 'workspace usage-plans': {
      const usage = 'Usage: npm run admin -- workspace usage-plans --aws [--json]';
      const values = parse(rest, {}, usage);
      if (!values.aws) throw new UsageError(`Usage plans exist only deployed: add --aws.\n\n${usage}`);
      const target = await stageTarget();
      env();
      const { listWorkspaces } = await import('../shared/workspaces/workspaces-repository.js');
      const { applyUsagePlan, apiGatewayClient } = await import('./admin/usage-plans.js');
      const { DEFAULT_WORKSPACE_LIMITS } = await import('../shared/http/rate-limits.js');
      const client = apiGatewayClient();
      let workspaces = 0;
      let created = 0;
      let cursor: string | undefined;
      do {
        const page = await listWorkspaces({ page: 0, limit: 100, ...(cursor ? { cursor } : {}) });
        for (const workspace of page.items) {
          const applied = await applyUsagePlan(client, target, workspace.id, workspace.limits ?? DEFAULT_WORKSPACE_LIMITS);
          workspaces += 1;
          if (applied.created) created += 1;
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      output({ workspaces, created }, Boolean(values.json), [
        `${workspaces} workspaces have their usage plan on ${target.restApiId}/${target.stage} (${created} created now).`,
      ]);
      return;
    }
    case 'key create': {
      const usage = 'Usage: npm run admin -- key create --workspace ID [--read-only] [--json]';
      const values = parse(rest, { workspace: { type: 'string' }, 'read-only': { type: 'boolean' } }, usage);
      const workspaceId = required(values, 'workspace', usage);
      env();
      const { createApiKey } = await import('../shared/workspaces/workspaces-repository.js');
      const scope = values['read-only'] ? 'read_only' : 'read_write';
      const { apiKey, record } = await createApiKey(workspaceId, scope);
      output({ workspaceId, keyId: record.keyId, scope, apiKey }, Boolean(values.json), [
        `${scope === 'read_only' ? 'Read-only' : 'Read-write'} key ${record.keyId} created for workspace ${workspaceId}.`,
        `API key (shown once, store it now): ${apiKey}`,
      ]);
      return;
    }
    case 'key revoke': {
      const usage = 'Usage: npm run admin -- key revoke --key KEY [--json], or key revoke --workspace ID --key-id KEY_ID [--json]';
      const values = parse(rest, { key: { type: 'string' }, workspace: { type: 'string' }, 'key-id': { type: 'string' } }, usage);
      const byId = values['key-id'] !== undefined || values.workspace !== undefined;
      if (byId && values.key !== undefined) throw new UsageError(`Give --key, or --workspace with --key-id, not both. ${usage}`);
      const { revokeApiKey, revokeApiKeyById } = await import('../shared/workspaces/workspaces-repository.js');
      let revoke: () => ReturnType<typeof revokeApiKey>;
      if (byId) {
        const workspaceId = required(values, 'workspace', usage);
        const keyId = required(values, 'key-id', usage);
        revoke = () => revokeApiKeyById(workspaceId, keyId);
      } else {
        const key = required(values, 'key', usage);
        const { API_KEY_PATTERN } = await import('../shared/auth/api-keys.js');
        if (!API_KEY_PATTERN.test(key)) throw new UsageError('--key is not a Boxoffice API key (bo_live_...).');
        revoke = () => revokeApiKey(key);
      }
      env();
      const record = await revoke();
      // Cached authorizer answers would let the key work for up to 300 s more: flush them.
      const { flushAuthorizerCache, localApiUrl } = await import('./admin/authorizer-cache.js');
      const { stageTargetFromEnv } = await import('./admin/usage-plans.js');
      const localUrl = localApiUrl();
      const flush = await flushAuthorizerCache(values.aws ? { aws: true, stage: stageTargetFromEnv() } : { aws: false, localUrl });
      output({ keyId: record.keyId, workspaceId: record.workspaceId, revokedAt: record.revokedAt, authorizerCacheFlushed: flush === 'flushed' }, Boolean(values.json), [
        `Key ${record.keyId} of workspace ${record.workspaceId} revoked.`,
        {
          flushed: 'The API\'s authorizer cache was flushed: requests with this key get 401 now.',
          'no-local-server': `No local API answered on ${localUrl}: nothing was cached there (set PORT to the one npm start uses).`,
          'no-stage': 'Set REST_API_ID and API_STAGE to flush the stage\'s authorizer cache; until then the key may keep working for up to 5 minutes.',
        }[flush],
      ]);
      return;
    }
    case 'partner create': {
      const usage = 'Usage: npm run admin -- partner create --code CODE [--first-name ..] [--last-name ..] [--company-name ..] [--email ..] [--json]';
      const values = parse(rest, {
        code: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' },
        'company-name': { type: 'string' }, email: { type: 'string' },
      }, usage);
      const code = required(values, 'code', usage);
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) throw new UsageError('--code must be 1..64 letters, digits, "-" or "_".');
      const email = values.email as string | undefined;
      if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new UsageError('--email is not an email address.');
      env();
      const { createPartner } = await import('../shared/partners/partners-repository.js');
      const partner = await createPartner({
        referral_code: code,
        firstName: values['first-name'] as string | undefined,
        lastName: values['last-name'] as string | undefined,
        companyName: values['company-name'] as string | undefined,
        email,
      });
      output({ partnerId: partner._id, referral_code: partner.referral_code }, Boolean(values.json), [
        `Partner ${partner._id} created with referral code ${partner.referral_code}.`,
      ]);
      return;
    }
    case 'workspace list': {
      const usage = 'Usage: npm run admin -- workspace list [--limit N] [--cursor C] [--json]';
      const values = parse(rest, listOptions, usage);
      const request = pageRequest(values);
      env();
      const { listWorkspaces } = await import('../shared/workspaces/workspaces-repository.js');
      const page = await listWorkspaces(request);
      outputList(page, Boolean(values.json), (workspace) => [
        workspace.id, workspace.createdAt, workspace.limits ? `${workspace.limits.rate}/s burst ${workspace.limits.burst}` : 'default limits', workspace.name,
      ], 'npm run admin -- workspace list');
      return;
    }
    case 'key list': {
      const usage = 'Usage: npm run admin -- key list --workspace ID [--limit N] [--cursor C] [--json]';
      const values = parse(rest, { ...listOptions, workspace: { type: 'string' } }, usage);
      const workspaceId = required(values, 'workspace', usage);
      const request = pageRequest(values);
      env();
      const { getWorkspace, listApiKeys } = await import('../shared/workspaces/workspaces-repository.js');
      const { NotFoundError } = await import('../shared/errors.js');
      if (!(await getWorkspace(workspaceId))) throw new NotFoundError('Workspace');
      const page = await listApiKeys(workspaceId, request);
      outputList(page, Boolean(values.json), (key) => [
        key.keyId, key.scope, `${key.displayPrefix}...`, key.createdAt, key.revokedAt ? `revoked ${key.revokedAt}` : 'active',
      ], `npm run admin -- key list --workspace ${workspaceId}`);
      return;
    }
    case 'partner list': {
      const usage = 'Usage: npm run admin -- partner list [--limit N] [--cursor C] [--json]';
      const values = parse(rest, listOptions, usage);
      const request = pageRequest(values);
      env();
      const { listPartners } = await import('../shared/partners/partners-repository.js');
      const page = await listPartners(request);
      outputList(page, Boolean(values.json), (partner) => [
        partner._id, partner.referral_code, partner.createdAt, [partner.firstName, partner.lastName, partner.companyName].filter(Boolean).join(' '),
      ], 'npm run admin -- partner list');
      return;
    }
    case 'backfill': {
      const usage = 'Usage: npm run admin -- backfill [--segments N] [--restart] [--json]';
      const values = parse(verb === undefined ? rest : [verb, ...rest], { segments: { type: 'string' }, restart: { type: 'boolean' } }, usage);
      const segments = values.segments === undefined ? 4 : Number(values.segments);
      if (!Number.isInteger(segments) || segments < 1 || segments > 64) throw new UsageError('--segments must be a whole number from 1 to 64.');
      env();
      const { runBackfill } = await import('./admin/backfill.js');
      const { BACKFILL_STEPS } = await import('./admin/backfill-steps.js');
      const report = await runBackfill({ steps: BACKFILL_STEPS, segments, restart: Boolean(values.restart) });
      output({ ...report }, Boolean(values.json), [
        report.alreadyComplete
          ? `Backfill ${report.run} was already complete (use --restart to run it again).`
          : `Backfill ${report.run}: scanned ${report.scanned} items, rebuilt ${report.rebuilt}, wrote ${report.written} derived items${report.resumedSegments > 0 ? ` (resumed ${report.resumedSegments} segments)` : ''}.`,
        `Steps: ${BACKFILL_STEPS.map((step) => step.name).join('; ')}.`,
      ]);
      return;
    }
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);
  }
}

/** What a failed command says: a code for scripts (`--json`) and a message for people. */
async function describeFailure(error: unknown): Promise<{ code: string; message: string }> {
  const { DomainError } = await import('../shared/errors.js');
  if (error instanceof UsageError) return { code: 'usage', message: error.message };
  if (error instanceof DomainError) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  const hint = /ECONNREFUSED|connect/.test(message) ? '\nIs DynamoDB running? Start it with `npm start`, or set DYNAMODB_ENDPOINT.' : '';
  return { code: 'command_failed', message: `Command failed: ${message}${hint}` };
}

const argv = process.argv.slice(2);
run(argv).catch(async (error: unknown) => {
  const failure = await describeFailure(error);
  console.error(argv.includes('--json') ? JSON.stringify({ error: failure }) : failure.message);
  process.exit(1);
});
