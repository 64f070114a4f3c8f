import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const CI_RUN = join(import.meta.dirname, '../../../.ci/run');
const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * Runs `.ci/run` with a stand-in `npm` on the PATH: `npm ci` succeeds, `npm test` prints `output`
 * and exits with `exitCode`. The chromium check is pointed at an executable that exists.
 */
function runCi(output: string, exitCode: number): { status: number | null; stdout: string } {
  const bin = mkdtempSync(join(tmpdir(), 'ci-run-'));
  folders.push(bin);
  const npm = join(bin, 'npm');
  writeFileSync(join(bin, 'test-output'), `${output}\n`);
  writeFileSync(npm, `#!/usr/bin/env bash\nif [ "$1" = test ]; then cat '${join(bin, 'test-output')}'; exit ${exitCode}; fi\nexit 0\n`);
  chmodSync(npm, 0o755);
  const result = spawnSync('bash', [CI_RUN], {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, CHROMIUM_PATH: '/bin/sh' },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout };
}

describe('.ci/run', () => {
  it('prints the summary line and succeeds when the tests pass', () => {
    // Act
    const result = runCi('      Tests  12 passed (12)', 0);

    // Assess
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n').at(-1)).toBe('12 passed, 0 failed');
  });

  it('prints the summary line on failure too, and keeps the failing exit code', () => {
    // Act
    const result = runCi('\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[31m2 failed\u001b[39m\u001b[22m | 1613 passed (1615)', 1);

    // Assess
    expect(result.status).toBe(1);
    expect(result.stdout.trim().split('\n').at(-1)).toBe('1613 passed, 2 failed');
  });

  it('says why when npm test stops before vitest reports (typecheck or lint)', () => {
    // Act
    const result = runCi('error TS2322: nope', 2);

    // Assess
    expect(result.status).toBe(2);
    expect(result.stdout).toContain('failed (exit 2) before vitest reported');
    expect(result.stdout.trim().split('\n').at(-1)).toBe('0 passed, 0 failed');
  });
});
