import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { handlerEntry } from '../../lib/paths.js';
import { WEBHOOK_FUNCTIONS } from '../../lib/webhook-delivery.js';
import { BUNDLE_BUDGET_KIB, bundleLikeCdk } from '../support/lambda-bundle.js';

// Every function (the API groups, the authorizer, webhook delivery and the scheduled ones) bundled exactly as CDK bundles it (bundling.test.ts proves the replica byte-identical):
// a dependency or an import that drags another group's code in fails here, not in a cold start.
// The route table's modules load the DynamoDB client, which reads its configuration when loaded.
process.env.TABLE_NAME ??= 'bundle-size-test';
const { activeGroups } = await import('../../shared/http/routes.js');
const outdir = mkdtempSync(join(tmpdir(), 'boxoffice-bundle-size-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('bundle size budget', () => {
  it.each(['authorizer', ...activeGroups(), ...WEBHOOK_FUNCTIONS, 'refund-reconciler', 'event-end-sweeper'])(`keeps the %s function within ${BUNDLE_BUDGET_KIB} KiB`, async (fn) => {
    // Act
    const { bytes } = await bundleLikeCdk(handlerEntry(fn), join(outdir, fn));
    // Assess
    expect(bytes).toBeLessThanOrEqual(BUNDLE_BUDGET_KIB * 1024);
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
});
