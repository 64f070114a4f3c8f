import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The package names the README's "Dependencies and why" table gives a reason for. */
function explainedPackages(): Set<string> {
  const section = readme.split('\n## Dependencies and why\n')[1]?.split('\n## ')[0] ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Package') && !line.startsWith('|---'));
  return new Set(rows.flatMap((row) => [...(row.split(' | ')[0] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '')));
}

describe('README: dependencies and why', () => {
  it('gives a reason for every package the project installs, and names none it does not', () => {
    // Arrange
    const installed = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).sort();
    const explained = explainedPackages();

    // Assess
    expect(installed.filter((name) => !explained.has(name))).toEqual([]);
    expect([...explained].filter((name) => !installed.includes(name)).sort()).toEqual([]);
  });
});
