import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver.js';
import { freePort } from '../../bin/local/ports.js';

/**
 * The README's "Webhooks" section, run as written: its Node and openssl verification snippets
 * against a real delivery, and its local walk-through against the local server with delivery running.
 */

const ROOT = join(import.meta.dirname, '../..');
let api: TestApi;
let receiver: WebhookReceiver;
let dir: string;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  api = await startApi({ webhooks: { schedule: { baseMs: 100, factor: 2, capMs: 1_600, jitter: 0.2 }, timeoutMs: 1_000 } });
  dir = mkdtempSync(join(tmpdir(), 'readme-webhooks-'));
});
afterAll(async () => {
  await api.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The README's Webhooks section: from its heading to the next heading of its level. */
function webhooksSection(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### Webhooks\n');
  if (start < 0) throw new Error('README has no "### Webhooks" section');
  const end = readme.indexOf('\n### ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The first fenced block of `language` after `marker` in the Webhooks section. */
function block(language: string, marker: string): string {
  const section = webhooksSection();
  const from = section.indexOf(marker);
  if (from < 0) throw new Error(`README's Webhooks section has no "${marker}"`);
  const found = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(section.slice(from))?.[1];
  if (!found) throw new Error(`README's Webhooks section has no ${language} block after "${marker}"`);
  return found;
}

function run(file: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { encoding: 'utf8', timeout: 60_000, cwd: options.cwd, env: { ...process.env, ...options.env } }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}


/** One delivery of invoice.voided to the receiver, and the endpoint's secret. */
async function oneDelivery(ws: TestWorkspace): Promise<{ secret: string; request: ReceivedWebhook }> {
  const path = `/readme-${ws.workspaceId}`;
  const created = await api.request('POST', '/v1/webhook-endpoints', { key: ws.apiKey, body: { url: receiver.script(path, 200), events: ['invoice.voided'] } });
  const contact = await api.request('POST', '/v1/contacts', { key: ws.apiKey, body: { email: `readme-${ws.workspaceId}@example.com` } });
  const invoice = await api.request('POST', '/v1/invoices', {
    key: ws.apiKey, body: { customerId: contact.body.data.id, currency: 'USD', lineItems: [{ description: 'Ticket', quantity: 1, unitAmount: 2_500 }] },
  });
  const voided = await api.request('POST', `/v1/invoices/${invoice.body.data.id}/void`, { key: ws.apiKey });
  expect([created.status, contact.status, invoice.status, voided.status], voided.text).toEqual([201, 201, 201, 200]);
  await receiver.until(() => receiver.at(path).length >= 1);
  return { secret: created.body.data.secret, request: receiver.at(path)[0] as ReceivedWebhook };
}

describe('the README\'s webhook signature verification', () => {
  it('openssl, as written, computes one of the signatures of a real delivery, and not for a changed body', async () => {
    // Prepare
    const { secret, request } = await oneDelivery(await api.newWorkspace('README openssl'));
    const script = block('bash', 'Or with openssl');
    const env = { SECRET: secret, WEBHOOK_ID: String(request.headers['webhook-id']), WEBHOOK_TIMESTAMP: String(request.headers['webhook-timestamp']) };
    const signatures = String(request.headers['webhook-signature']).split(' ').map((signature) => signature.replace(/^v1,/, ''));
    // Act
    writeFileSync(join(dir, 'body.json'), request.body);
    const genuine = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, env });
    writeFileSync(join(dir, 'body.json'), request.body.replace('invoice.voided', 'invoice.paid'));
    const changed = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, env });
    // Assess
    expect(genuine.stderr).toBe('');
    expect(genuine.status).toBe(0);
    expect(signatures).toContain(genuine.stdout.trim());
    expect(changed.status).toBe(0);
    expect(signatures).not.toContain(changed.stdout.trim());
  });

  it('the Node snippet, as written, accepts a real delivery and throws on a changed body', async () => {
    // Prepare: the snippet's free variables given the received request's values
    const { secret, request } = await oneDelivery(await api.newWorkspace('README node'));
    const snippet = (rawBody: string) => [
      `const rawBody = ${JSON.stringify(rawBody)};`,
      `const id = ${JSON.stringify(request.headers['webhook-id'])};`,
      `const timestamp = ${JSON.stringify(request.headers['webhook-timestamp'])};`,
      `const signature = ${JSON.stringify(request.headers['webhook-signature'])};`,
      block('js', 'Verify in Node'),
      'console.log(JSON.stringify(event));',
    ].join('\n');
    const env = { BOXOFFICE_WEBHOOK_SECRET: secret };
    // Act
    const genuine = await run(process.execPath, ['--input-type=module', '-e', snippet(request.body)], { cwd: ROOT, env });
    const changed = await run(process.execPath, ['--input-type=module', '-e', snippet(request.body.replace('invoice.voided', 'invoice.paid'))], { cwd: ROOT, env });
    // Assess
    expect(genuine.status, genuine.stderr).toBe(0);
    expect(JSON.parse(genuine.stdout)).toEqual(JSON.parse(request.body));
    expect(changed.status).not.toBe(0);
    expect(changed.stderr).toMatch(/WebhookVerificationError|signature/i);
  });
});

describe('the README\'s local webhooks walk-through', () => {
  it('runs as written against the local server: its receiver prints contact.created and invoice.voided, signed, then one of them again', async () => {
    // Prepare: the lines a reader adapts (npm start already running, the printed key, the ports), nothing else.
    const { apiKey } = await api.newWorkspace('README walk-through');
    const port = await freePort();
    const script = block('bash', '**Walk-through, locally:**')
      .replace(/^npm start .*$/m, '')
      .replace(/^export KEY=.*$/m, `export KEY=${apiKey}`)
      .replaceAll('http://127.0.0.1:3000', api.url)
      .replaceAll('4000', String(port));
    expect(script).not.toContain(':3000');
    // Act: as a reader pastes it, any failing command failing the run. The receiver it starts in the
    // background keeps running: it is stopped once the script's last line is done.
    const child = spawn('bash', ['-euo', 'pipefail', '-c', `${script}\necho WALK-THROUGH-DONE >&2\nwait`], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const deadline = Date.now() + 45_000;
      while (!stderr.includes('WALK-THROUGH-DONE') && Date.now() < deadline && child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      if (child.exitCode === null) process.kill(-(child.pid as number), 'SIGTERM');
    }
    const status = await exited;
    // Assess: the script reached its end (killed while waiting for the receiver, not failed on its own)
    expect(stderr).toBe('WALK-THROUGH-DONE\n');
    expect(status).toBeNull();
    const created = JSON.parse(stdout.split('\n')[0] as string);
    expect(created.data).toMatchObject({ url: `http://127.0.0.1:${port}/hooks`, events: ['*'], secret: expect.stringMatching(/^whsec_/) });
    // Each delivery printed as "<webhook-id> <webhook-timestamp> v1,<signature> <body>" (the body's id is the
    // webhook-id): everything the signature checks need, so the printed headers verify the printed body.
    const printed = [...stdout.matchAll(/^([a-f0-9]{24}) (\d+) (v1,[A-Za-z0-9+/]+=*) (\{.*\})$/gm)];
    const webhook = new Webhook(created.data.secret);
    for (const [, id, timestamp, signature, body] of printed) {
      expect(() => webhook.verify(body as string, { 'webhook-id': id as string, 'webhook-timestamp': timestamp as string, 'webhook-signature': signature as string })).not.toThrow();
    }
    const bodies = printed.map(([, id, , , body]) => ({ id, body: JSON.parse(body as string) as { id: string; type: string } }));
    expect(bodies.map(({ body }) => body.type).slice(0, 2).sort()).toEqual(['contact.created', 'invoice.voided']);
    expect(bodies).toHaveLength(3);
    for (const { id, body } of bodies) expect(body.id).toBe(id);
    expect(bodies.slice(0, 2).map(({ id }) => id)).toContain(bodies[2]?.id);
    // The deliveries list it printed, and redeliver's answer: a new pending delivery of the same event.
    const deliveries = JSON.parse(stdout.split('\n').find((line) => line.startsWith('{"data":[')) as string);
    expect(deliveries.data.map((delivery: { type: string; status: string }) => `${delivery.type}:${delivery.status}`).sort())
      .toEqual(['contact.created:succeeded', 'invoice.voided:succeeded']);
    const redelivered = JSON.parse(stdout.split('\n').find((line) => line.includes('"status":"pending"')) as string);
    expect(redelivered.data).toMatchObject({ eventId: deliveries.data[0].eventId, attempts: 0 });
  }, 60_000);
});
