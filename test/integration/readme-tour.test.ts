import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seeders } from '../../bin/local/seed/index.js';
import { createSeedClient } from '../../bin/local/seed/seed-client.js';
import { startApi, type TestApi } from './support/api.js';

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

/** The README's quick-tour block, verbatim: the first bash block of the "Quick tour" section. */
function tourBlock(): string {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick tour\n'));
  const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README has no bash block in its Quick tour section');
  return block;
}

describe('the README quick tour', () => {
  it('runs end to end as written against the local server, on the demo data, and invoices a new contact', async () => {
    // Prepare: a workspace with npm start's demo data, as the demo key has; the two lines a reader edits
    // (the address and the printed key), nothing else.
    const { workspaceId, apiKey } = await api.newWorkspace('Tour');
    const client = createSeedClient(api.url, workspaceId, apiKey);
    for (const seeder of seeders) await seeder.seed(client);
    const respondent = /\\"answers\\":\{\\"\$EMAIL\\":\\"([^\\]+)\\"/.exec(tourBlock())?.[1] as string;
    const getJson = async (path: string) => (await fetch(`${api.url}${path}`, { headers: { Authorization: `Bearer ${apiKey}` } })).json() as Promise<{ data: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect((await getJson(`/v1/contacts?email=${encodeURIComponent(respondent)}`)).data).toEqual([]);
    const script = tourBlock()
      .replace(/^export API=.*$/m, `export API=${api.url}`)
      .replace(/^export KEY=.*$/m, `export KEY=${apiKey}`);

    // Act: as a reader pastes it, with any failing command failing the run. (Asynchronously: the
    // server answering it runs in this process.)
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) => {
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });

    // Assess
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(JSON.parse(lines[0] as string)).toMatchObject({ status: 'ok' });
    const responses = lines.find((line) => line.includes('"answers"') && line.includes(respondent));
    expect(responses, result.stdout).toBeDefined();
    // The invoiced contact is the new one the submission created, not a demo contact.
    const contactId = (JSON.parse(responses as string) as { data: { contactId: string }[] }).data[0]?.contactId;
    expect((await getJson(`/v1/contacts/${contactId}`)).data).toMatchObject({ email: respondent });
    expect(lines.some((line) => line.includes(`"customerId":"${contactId}"`))).toBe(true);
    expect(lines.some((line) => /"status":"succeeded","amount":2500/.test(line))).toBe(true);
    expect(lines.at(-1)).toBe('paid');
  }, 180_000);
});
