import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { handlerEntry, REPO_ROOT } from '../../lib/paths.js';
import { WEBHOOK_FUNCTIONS } from '../../lib/webhook-delivery.js';
import { BUSINESS_METRICS_FUNCTION } from '../../lib/business-metrics.js';
import { build } from 'esbuild';
import { BUNDLE_BUDGET_KIB, bundleLikeCdk, esbuildOptionsOf } from '../support/lambda-bundle.js';

// Every function (the API groups, the authorizer, webhook delivery, the scheduled ones and business metrics) bundled exactly as CDK bundles it (bundling.test.ts proves the replica byte-identical):
// a dependency or an import that drags another group's code in fails here, not in a cold start.
// The route table's modules load the DynamoDB client, which reads its configuration when loaded.
process.env.TABLE_NAME ??= 'bundle-size-test';
const { activeGroups } = await import('../../shared/http/routes.js');
const outdir = mkdtempSync(join(tmpdir(), 'boxoffice-bundle-size-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const FUNCTIONS = ['authorizer', ...activeGroups(), ...WEBHOOK_FUNCTIONS, 'refund-reconciler', 'event-end-sweeper', BUSINESS_METRICS_FUNCTION];

/** A function holding only the SDK clients the functions use (DynamoDB's DocumentClient, SQS for webhooks). */
const SDK_CLIENTS_ONLY = "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\n"
  + "import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\n"
  + "import { SQSClient } from '@aws-sdk/client-sqs';\n"
  + 'export const clients = [DynamoDBDocumentClient.from(new DynamoDBClient({})), new SQSClient({})];\n';

/** The modules esbuild wraps in a lazy initialiser (`__esm`), read from an unminified build of `entry` (or of `source`). */
async function lazilyInitialised(name: string, entry: string | { source: string }): Promise<Set<string>> {
  const file = join(outdir, `${name}-unminified.mjs`);
  const options = esbuildOptionsOf(typeof entry === 'string' ? entry : 'stdin', file);
  if (typeof entry !== 'string') {
    delete options.entryPoints;
    options.stdin = { contents: entry.source, resolveDir: REPO_ROOT, loader: 'ts', sourcefile: `${name}.ts` };
  }
  await build({ ...options, minify: false, sourcemap: false });
  return new Set([...readFileSync(file, 'utf8').matchAll(/^var (init_\w+) = __esm\(/gm)].map((match) => match[1] as string));
}

describe('bundle size budget', () => {
  it.each(FUNCTIONS)(`keeps the %s function within ${BUNDLE_BUDGET_KIB} KiB, with the Tracer stand-in rather than the X-Ray SDK`, async (fn) => {
    // Act
    const { bytes, file } = await bundleLikeCdk(handlerEntry(fn), join(outdir, fn));
    // Assess
    expect(bytes).toBeLessThanOrEqual(BUNDLE_BUDGET_KIB * 1024);
    // The SDK's daemon setting: ~120 KiB and ~12 ms of cold start come with it (tracer.test.ts runs both bundlings).
    expect(readFileSync(file, 'utf8')).not.toContain('AWS_XRAY_DAEMON_ADDRESS');
  });

  it('leaves the DynamoDB client out of the docs function, which reads no data (its headroom for every route\'s schemas)', async () => {
    // Act
    const { file } = await bundleLikeCdk(handlerEntry('docs'), join(outdir, 'docs-client'));
    // Assess
    expect(readFileSync(file, 'utf8')).not.toContain('DynamoDBClient');
  });

  it('gives Powertools Idempotency the field-name stand-in, not the JMESPath interpreter (23 KiB of cold start)', async () => {
    // Act
    const { file } = await bundleLikeCdk(handlerEntry('forms'), join(outdir, 'forms-jmespath'));
    // Assess
    const code = readFileSync(file, 'utf8');
    expect(code).toContain('IdempotencyConfig');
    expect(code).toContain('JMESPath stand-in evaluates bare field names only');
    expect(code).not.toContain('Bad jmespath expression');
  });

  it('wraps no module in a lazy initialiser that the SDK clients alone do not (V8 parses those twice at a cold start)', async () => {
    // Prepare: the SDK's own dynamic imports make esbuild wrap some of its modules; a dynamic import()
    // of our code wraps every module it shares with the eager code too (the KMS signer did: 9% of the
    // webhooks function's load time).
    const baseline = await lazilyInitialised('baseline', { source: SDK_CLIENTS_ONLY });
    // Act
    const extra = await Promise.all(FUNCTIONS.map(async (fn) => [fn, [...await lazilyInitialised(fn, handlerEntry(fn))].filter((name) => !baseline.has(name))] as const));
    // Assess
    expect(baseline.size).toBeGreaterThan(0);
    expect(Object.fromEntries(extra.filter(([, names]) => names.length > 0))).toEqual({});
  });
});
