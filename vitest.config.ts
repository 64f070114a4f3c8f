import { defineConfig } from 'vitest/config';

// One project per test tier (STYLE.md): unit tests never touch the network; integration tests drive the
// real handlers through the local server against DynamoDB Local started once by the global setup.

// The AWS SDK's nine-line notice about Node 22 (for its 2027 releases) would repeat in every worker.
const quietSdk = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
// The Tracer is off outside Lambda: its X-Ray SDK needs no async hook on every promise (bin/local/environment.ts).
const quietXRay = { AWS_XRAY_MANUAL_MODE: 'true' };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          env: { ...quietSdk, ...quietXRay, TABLE_NAME: 'boxoffice-unit', IDEMPOTENCY_TABLE_NAME: 'boxoffice-unit-idempotency', AWS_REGION: 'us-east-1', POWERTOOLS_DEV: 'false', POWERTOOLS_LOG_LEVEL: 'SILENT' },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { ...quietSdk, ...quietXRay, POWERTOOLS_LOG_LEVEL: 'SILENT' },
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          env: { ...quietSdk },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The synthesized app (every function's esbuild bundle) deployed onto this machine: tables from the
        // template on DynamoDB Local, each bundle in its own Node process, a gateway built from the template.
        test: {
          name: 'deployed',
          include: ['test/deployed/**/*.test.ts'],
          globalSetup: ['test/deployed/support/global-setup.ts'],
          // A flow is tens of requests through cold Node processes: generous for a loaded machine.
          testTimeout: 240_000,
          hookTimeout: 180_000,
          // Each file deploys the app (a Node process per function): one file at a time keeps a loaded
          // 2-core machine from answering 503 (DynamoDB Local past the 1 s request timeout).
          fileParallelism: false,
          // The local side of the comparison guards webhook URLs as deployed: npm test runs the integration
          // setup first, which sets the local policy in the environment every later worker inherits.
          env: { POWERTOOLS_LOG_LEVEL: 'SILENT', WEBHOOK_URL_POLICY: 'deployed' },
        },
      },
      {
        // Drives Debian's chromium (installed by the global setup when missing) against the local server.
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          env: { ...quietSdk, POWERTOOLS_LOG_LEVEL: 'SILENT' },
        },
      },
    ],
  },
});
