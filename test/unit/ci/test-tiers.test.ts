import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../../vitest.config.js';

const ROOT = join(import.meta.dirname, '../../..');
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const projects = (config.test?.projects ?? []) as { test: { name: string; include: string[] } }[];

describe('npm test', () => {
  it('runs every vitest project, the deployed-artifact tier included (what deploys is what is tested)', () => {
    // Act
    const vitestCommand = scripts.test?.split('&&').map((part) => part.trim()).find((part) => part.startsWith('vitest'));

    // Assess: vitest without a project filter runs them all; the deployed project is one of them.
    expect(vitestCommand).toBe('vitest run');
    expect(projects.map((project) => project.test.name)).toContain('deployed');
    expect(projects.find((project) => project.test.name === 'deployed')?.test.include).toEqual(['test/deployed/**/*.test.ts']);
  });

  it('has a script per tier to run it alone', () => {
    // Assess
    for (const { test } of projects) expect(scripts[`test:${test.name}`]).toBe(`vitest run --project ${test.name}`);
  });
});
