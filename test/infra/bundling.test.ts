import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { BoxofficeFunction, ESM_REQUIRE_BANNER, FUNCTION_NODE_OPTIONS } from '../../lib/boxoffice-function.js';
import { docsAssetsHooks } from '../../lib/group-functions.js';
import { handlerEntry } from '../../lib/paths.js';
import { DOCS_ASSETS } from '../../shared/http/routes/docs.js';
import { BUNDLED_ASSETS_DIR } from '../../functions/docs/docs-assets.js';
import { bundleLikeCdk } from '../support/lambda-bundle.js';
import { BUNDLED_WIDGET_DIR, WIDGET_FILE_NAME } from '../../functions/docs/widget-script.js';
import { WIDGET_SCRIPT_PATH, widgetRoutes } from '../../shared/http/routes/docs.js';
import { toProxyEvent } from '../../bin/local/api-gateway-event.js';
import { buildWidgetScript } from '../../widget/build-widget.js';
import { openApiDocument } from '../../shared/openapi/document.js';
import { OPENAPI_DOCUMENT_FILE } from '../../shared/openapi/served-document.js';

// The one infra test that really bundles (esbuild, no Docker): the docs function, which also copies
// the Swagger UI files next to its bundle.
let outdir: string;
let bundleDir: string;

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'boxoffice-bundling-'));
  const app = new App({ outdir });
  const stack = new Stack(app, 'Bundling');
  new BoxofficeFunction(stack, 'Docs', { entry: handlerEntry('docs'), description: 'docs', commandHooks: docsAssetsHooks });
  const template = Template.fromStack(stack);
  const code = Object.values(template.findResources('AWS::Lambda::Function'))[0]?.Properties.Code as { S3Key: string };
  bundleDir = join(outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
});

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

describe('BoxofficeFunction bundling', () => {
  it('emits a minified ESM bundle with the createRequire banner and a source map', () => {
    // Act
    const bundle = readFileSync(join(bundleDir, 'index.mjs'), 'utf8');

    // Assess
    expect(bundle.startsWith(ESM_REQUIRE_BANNER)).toBe(true);
    expect(bundle).toMatch(/export\s*\{[^}]*as handler/);
    // Minified: template literals keep their newlines, so count characters per line, not lines.
    expect(bundle.length / bundle.split('\n').length).toBeGreaterThan(1_000);
    expect(existsSync(join(bundleDir, 'index.mjs.map'))).toBe(true);
  });

  it('writes a source map of positions and file names only, which Node parses at every cold start with --enable-source-maps', async () => {
    // Act
    const map = JSON.parse(readFileSync(join(bundleDir, 'index.mjs.map'), 'utf8')) as { sources: string[]; mappings: string; sourcesContent?: unknown };
    const replica = await bundleLikeCdk(handlerEntry('docs'), join(outdir, 'replica-map'));
    // Assess
    expect(map.sources.some((source) => source.endsWith('functions/docs/handler.ts'))).toBe(true);
    expect(map.mappings.length).toBeGreaterThan(1_000);
    expect(map.sourcesContent).toBeUndefined();
    expect(FUNCTION_NODE_OPTIONS).toBe('--enable-source-maps');
    expect(readFileSync(`${replica.file}.map`, 'utf8') === readFileSync(join(bundleDir, 'index.mjs.map'), 'utf8')).toBe(true);
  });

  it('loads as an ES module in plain Node and exports the handler', () => {
    // Prepare
    const script = `const m = await import(${JSON.stringify(pathToFileURL(join(bundleDir, 'index.mjs')).href)}); process.stdout.write(typeof m.handler);`;

    // Act
    const exported = execFileSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
      env: { ...process.env, TABLE_NAME: 'bundle-test', AWS_REGION: 'us-east-1', POWERTOOLS_LOG_LEVEL: 'SILENT' },
      encoding: 'utf8',
    });

    // Assess
    expect(exported).toBe('function');
  });

  it('bundles the AWS SDK instead of importing the runtime\'s copy, without its credential chain', async () => {
    // Prepare: the docs function never calls DynamoDB, so check a function that does (the replica is
    // CDK's bundle byte for byte, as the next test shows)
    const { file } = await bundleLikeCdk(handlerEntry('system'), join(outdir, 'system'));
    const bundle = readFileSync(file, 'utf8');
    // Assess: matching booleans, not the bundle, so that a failure does not print half a megabyte
    expect(/from\s*"@aws-sdk\//.test(bundle)).toBe(false);
    expect(bundle.includes('DynamoDB_20120810')).toBe(true);
    // Lambda's environment credentials only: no SSO, ini file, web identity or STS code
    expect(bundle.includes('Unable to find environment variable credentials')).toBe(true);
    expect(bundle.includes('defaultProvider::fromSSO')).toBe(false);
    expect(bundle.includes('AssumeRoleWithWebIdentity')).toBe(false);
  });

  it('is reproduced byte for byte by the esbuild settings the bench and the size budget use', async () => {
    // Act
    const replica = await bundleLikeCdk(handlerEntry('docs'), join(outdir, 'replica'));
    // Assess
    expect(readFileSync(replica.file, 'utf8') === readFileSync(join(bundleDir, 'index.mjs'), 'utf8')).toBe(true);
  });

  it('writes the OpenAPI document of the route table next to the docs bundle, which carries no generator', () => {
    // Act
    const built = JSON.parse(readFileSync(join(bundleDir, OPENAPI_DOCUMENT_FILE), 'utf8')) as unknown;
    // Assess
    expect(built).toEqual(openApiDocument());
    // The generator's own text (the API description) is in the document, not in the code.
    expect(readFileSync(join(bundleDir, 'index.mjs'), 'utf8')).not.toContain('Event management and ticketing API');
  });

  it('copies the Swagger UI files next to the docs bundle', () => {
    // Assess
    for (const name of Object.keys(DOCS_ASSETS)) {
      expect(existsSync(join(bundleDir, BUNDLED_ASSETS_DIR, name)), name).toBe(true);
    }
  });
});

describe('the embeddable widgets script in the docs bundle', () => {
  it('is built next to the bundle, exactly as the local server builds it', async () => {
    // Act
    const bundled = readFileSync(join(bundleDir, BUNDLED_WIDGET_DIR, WIDGET_FILE_NAME), 'utf8');

    // Assess
    expect(bundled).toBe(await buildWidgetScript());
  });

  it('is served by the bundled docs handler, cacheable, without esbuild in the bundle', () => {
    // Prepare
    const event = toProxyEvent(
      { method: 'GET', url: new URL(`https://api.example.com${WIDGET_SCRIPT_PATH}`), path: WIDGET_SCRIPT_PATH, headers: { host: 'api.example.com' }, body: Buffer.alloc(0), sourceIp: '203.0.113.1', requestId: 'bundle-test' },
      widgetRoutes.widgetScript, {}, null,
    );
    const script = `const m = await import(${JSON.stringify(pathToFileURL(join(bundleDir, 'index.mjs')).href)});
      const context = { awsRequestId: 'bundle-test', functionName: 'docs', getRemainingTimeInMillis: () => 10000 };
      const result = await m.handler(${JSON.stringify(event)}, context);
      process.stdout.write(JSON.stringify({ statusCode: result.statusCode, headers: result.headers, length: result.body.length, start: result.body.slice(0, 40) }));`;

    // Act
    const output = execFileSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
      env: { ...process.env, TABLE_NAME: 'bundle-test', AWS_REGION: 'us-east-1', POWERTOOLS_LOG_LEVEL: 'SILENT' },
      encoding: 'utf8',
    });

    // Assess
    const result = JSON.parse(output) as { statusCode: number; headers: Record<string, string>; length: number; start: string };
    const built = readFileSync(join(bundleDir, BUNDLED_WIDGET_DIR, WIDGET_FILE_NAME), 'utf8');
    expect(result.statusCode).toBe(200);
    expect(result.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(result.headers['Cache-Control']).toBe('public, max-age=3600');
    expect(result.length).toBe(built.length);
    expect(result.start).toBe(built.slice(0, 40));
    expect(readFileSync(join(bundleDir, 'index.mjs'), 'utf8')).not.toContain('esbuild');
  });
});
