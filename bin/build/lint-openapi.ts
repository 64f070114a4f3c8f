/**
 * `npm run lint:openapi`: lints the OpenAPI document, as `/openapi.json` serves it, with Redocly
 * (`redocly.yaml`: the recommended rules, every finding an error). It also checks every example
 * against its schema (`no-invalid-media-type-examples`). Offline: no telemetry, no update check.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocumentFor } from '../../shared/openapi/document.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'boxoffice-openapi-'));
const file = join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(openApiDocumentFor('http://127.0.0.1:3000')));
const run = spawnSync(join(root, 'node_modules/.bin/redocly'), ['lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'stylish'], {
  cwd: root,
  encoding: 'utf8',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
rmSync(dir, { recursive: true, force: true });
// Redocly prints a boxed "Node.js 20 support is ending" notice on every run: not a finding, left out.
const output = `${run.stdout}${run.stderr}`.split('\n').filter((line) => !/[║╔╚]/.test(line)).join('\n').trim();
console.log(output);
process.exit(run.status ?? 1);
