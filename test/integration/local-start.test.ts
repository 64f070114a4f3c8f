import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, connect } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { WebhookReceiver } from './support/webhook-receiver.js';
import { freePort } from '../../bin/local/ports.js';

const TSX_CLI = 'node_modules/tsx/dist/cli.mjs';


function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/** Starts `npm start`'s entry point and resolves once it printed `until`, with everything it printed. */
function start(env: NodeJS.ProcessEnv, until: RegExp): { child: ChildProcess; output: Promise<string> } {
  const child = spawn(process.execPath, [TSX_CLI, 'bin/local-server.ts'], { env: { POWERTOOLS_LOG_LEVEL: 'SILENT', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const output = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (until.test(text)) resolve(text);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', () => resolve(text));
    setTimeout(() => reject(new Error(`timed out; output so far:\n${text}`)), 90_000);
  });
  return { child, output };
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('npm start', () => {
  it('explains in one line how to get Java when it is missing', async () => {
    // Ports of its own: a developer's running `npm start` holds the default ones, and a taken port is said first.
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: '/nonexistent', PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()) };
    delete env.DYNAMODB_ENDPOINT;
    const { child, output } = start(env, /Java/);
    const text = await output;
    expect(await exited(child)).toBe(1);
    expect(text).toContain('DynamoDB Local needs Java 17+');
    expect(text).toContain('DYNAMODB_ENDPOINT');
  }, 60_000);

  it('takes every option together exactly as its usage line writes them', async () => {
    // Prepare: the usage line `npm start -- --help` prints, every optional part filled in.
    const run = (args: string[]) => promisify(execFile)('npm', ['start', '--silent', ...args], { env: process.env });
    const { stdout } = await run(['--', '--help']);
    const usage = /^Usage: npm start (.*)$/m.exec(stdout)?.[1];
    expect(usage, stdout).toBeDefined();
    const args = (usage as string).replace(/[[\]]/g, '').replace('DIR', '.local/usage-test').split(/\s+/).filter(Boolean);
    expect(args).toEqual(expect.arrayContaining(['--data-dir', '--verbose']));

    // Act: --help added last so that it stops after parsing the options.
    const { stdout: again } = await run([...args, '--help']);

    // Assess: parsed, not refused with `Unexpected argument`.
    expect(again).toContain('Usage: npm start');
  }, 60_000);

  it('refuses to start on a DynamoDB port held by another DynamoDB Local, naming the port, and writes nothing into it', async () => {
    // Prepare: the DynamoDB Local of this test run holds its port, as a first `npm start` would.
    const heldEndpoint = process.env.DYNAMODB_ENDPOINT as string;
    const heldPort = Number(new URL(heldEndpoint).port);
    const tableName = `second-start-${Date.now()}`;
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()), DYNAMODB_PORT: String(heldPort), TABLE_NAME: tableName };
    delete env.DYNAMODB_ENDPOINT;
    delete env.IDEMPOTENCY_TABLE_NAME;

    // Act
    const { child, output } = start(env, /Demo API key: bo_live_/);
    const text = await output;

    // Assess
    expect(await exited(child)).toBe(1);
    const lines = text.split('\n').filter((line) => line.trim() !== '' && !/Warning|AWS SDK|node >=22|a\.co|upgrade|trace-warnings|versions published|security updates/.test(line));
    expect(lines, text).toHaveLength(1);
    expect(lines[0]).toContain(`Port ${heldPort} (DynamoDB Local) is already in use`);
    expect(lines[0]).toContain('DYNAMODB_PORT');
    const client = new DynamoDBClient({ endpoint: heldEndpoint });
    const { TableNames } = await client.send(new ListTablesCommand({}));
    client.destroy();
    expect(TableNames).not.toContain(tableName);
  }, 60_000);

  it('refuses to start on an API port that is in use, naming it and PORT, before starting DynamoDB Local', async () => {
    // Prepare
    const holder = createServer();
    const apiPort = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)));
    const dynamoPort = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(apiPort), DYNAMODB_PORT: String(dynamoPort), TABLE_NAME: `port-test-${Date.now()}` };
    delete env.DYNAMODB_ENDPOINT;

    // Act
    const { child, output } = start(env, /Demo API key: bo_live_/);
    const text = await output;
    holder.close();

    // Assess
    expect(await exited(child)).toBe(1);
    expect(text).toContain(`Port ${apiPort} (the API) is already in use`);
    expect(text).toContain(`PORT=${apiPort + 1} npm start`);
    expect(await portOpen(dynamoPort)).toBe(false);
  }, 60_000);
});

describe('npm start, stopped with SIGTERM', () => {
  it('stops the server and DynamoDB Local when SIGTERM reaches npm itself (kill $!, a process manager)', async () => {
    // Prepare: `npm start` itself, not its entry point: the signal goes to npm, which passes it to its script.
    // Its own process group, so that whatever a failure leaves behind is killed below, and nothing else.
    const [apiPort, dynamoPort] = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(apiPort), DYNAMODB_PORT: String(dynamoPort), TABLE_NAME: `sigterm-test-${Date.now()}`, POWERTOOLS_LOG_LEVEL: 'SILENT' };
    delete env.DYNAMODB_ENDPOINT;
    delete env.IDEMPOTENCY_TABLE_NAME;
    const npm = spawn('npm', ['start'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    try {
      let text = '';
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          text += chunk.toString();
          if (/Demo API key: bo_live_\S+\n/.test(text)) resolve();
        };
        npm.stdout.on('data', onData);
        npm.stderr.on('data', onData);
        npm.once('exit', () => reject(new Error(`npm start exited early:\n${text}`)));
        setTimeout(() => reject(new Error(`timed out; output so far:\n${text}`)), 90_000);
      });
      expect(await portOpen(apiPort)).toBe(true);
      expect(await portOpen(dynamoPort)).toBe(true);

      // Act
      npm.kill('SIGTERM');
      await exited(npm);

      // Assess: both ports free within a few seconds.
      let open = [true, true];
      for (let tries = 0; open.some(Boolean) && tries < 50; tries += 1) {
        await new Promise((done) => setTimeout(done, 100));
        open = [await portOpen(apiPort), await portOpen(dynamoPort)];
      }
      expect(open).toEqual([false, false]);
    } finally {
      try { process.kill(-(npm.pid as number), 'SIGKILL'); } catch { /* the group is gone: nothing left behind */ }
    }
  }, 120_000);
});

describe('npm start, running', () => {
  let child: ChildProcess;
  let text: string;
  let apiPort: number;
  let dynamoPort: number;
  let receiver: WebhookReceiver;
  const key = () => /^Demo API key: (bo_live_\S+)$/.exec(text.trim().split('\n').at(-1) as string)?.[1];
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${apiPort}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key()}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() as { data: Record<string, any> } }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  beforeAll(async () => {
    // The log level a developer gets by default (request logs on).
    [apiPort, dynamoPort] = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      ...process.env, PORT: String(apiPort), DYNAMODB_PORT: String(dynamoPort), TABLE_NAME: `start-test-${Date.now()}`, POWERTOOLS_LOG_LEVEL: 'INFO',
    };
    delete env.DYNAMODB_ENDPOINT;
    delete env.IDEMPOTENCY_TABLE_NAME;
    delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
    const started = start(env, /Demo API key: bo_live_\S+\n/);
    child = started.child;
    text = await started.output;
    receiver = await new WebhookReceiver().start();
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    if (child?.exitCode === null) {
      child.kill('SIGINT');
      await exited(child);
    }
  });

  it('creates the table, seeds the demo workspace quietly and prints a working key last', async () => {
    // Assess: the banner is the whole output, the key its last line; no seeding logs, no SDK notice.
    expect(key(), text).toBeDefined();
    expect(text).toContain(`DynamoDB:          http://127.0.0.1:${dynamoPort}`);
    expect(text).toContain('(seeded with demo data)');
    expect(text).not.toContain('"level"');
    expect(text).not.toContain('NodeVersionSupportWarning');
    const health = await (await fetch(`http://127.0.0.1:${apiPort}/health/`)).json();
    expect(health).toMatchObject({ status: 'ok', db: 'connected' });
    const info = await fetch(`http://127.0.0.1:${apiPort}/v1/`, { headers: { Authorization: `Bearer ${key()}` } });
    expect(info.status).toBe(200);
    expect(await portOpen(dynamoPort)).toBe(true);
  });

  it('delivers a signed webhook to a receiver on 127.0.0.1 from DynamoDB Local\'s stream, retrying on the compressed schedule', async () => {
    // Prepare: a receiver that fails the first attempt
    const url = receiver.script('/npm-start', 500, 200);
    const endpoint = await call('POST', '/v1/webhook-endpoints', { url, events: ['contact.created'] });
    expect(endpoint.status).toBe(201);
    // Act
    const contact = await call('POST', '/v1/contacts', { email: 'webhook-walkthrough@example.com' });
    await receiver.until(() => receiver.at('/npm-start').length >= 2, 30_000);
    // Assess
    const [first, retry] = receiver.at('/npm-start');
    const verified = new Webhook(endpoint.body.data.secret).verify(retry?.body as string, retry?.headers as Record<string, string>) as { type: string; data: { object: unknown } };
    expect(verified).toMatchObject({ type: 'contact.created', data: { object: contact.body.data } });
    expect(retry?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    // The local schedule's first retry: 1 s +-20 % after the failure.
    expect((retry?.receivedAt as number) - (first?.receivedAt as number)).toBeGreaterThanOrEqual(800);
    // The sender writes the outcome back just after the receiver answered.
    let deliveries = await call('GET', `/v1/webhook-endpoints/${endpoint.body.data.id}/deliveries`);
    for (let tries = 0; deliveries.body.data[0]?.status === 'pending' && tries < 50; tries += 1) {
      await new Promise((done) => setTimeout(done, 200));
      deliveries = await call('GET', `/v1/webhook-endpoints/${endpoint.body.data.id}/deliveries`);
    }
    expect(deliveries.body.data).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 2, lastStatusCode: 200, type: 'contact.created' })]);
  }, 60_000);

  it('leaves no Java behind on Ctrl-C', async () => {
    // Act
    child.kill('SIGINT');
    await exited(child);
    await new Promise((done) => setTimeout(done, 500));
    // Assess
    expect(await portOpen(dynamoPort)).toBe(false);
  }, 30_000);
});
