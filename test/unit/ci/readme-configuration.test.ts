import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const SOURCE_DIRS = ['shared', 'functions', 'bin', 'lib', 'widget'];
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Variables the platform sets and the code only reads (Lambda, the SDK, CDK): documented by AWS, not here. */
const PLATFORM_VARIABLE = /^(AWS_|CDK_DEFAULT_)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

const sources = SOURCE_DIRS.flatMap(sourceFiles).map((file) => ({ file: relative(ROOT, file), text: readFileSync(file, 'utf8') }));

/** Every variable the code reads: `process.env.X`, `env.X`, `env['X']`, `requireEnv('X')`, `positiveInteger(env, 'X')`. */
function variablesRead(): Map<string, string> {
  const read = new Map<string, string>();
  const pattern = /(?:\benv\.|\benv\[['"]|requireEnv\(['"]|positiveInteger\(env, ['"])([A-Z][A-Z0-9_]+)/g;
  for (const { file, text } of sources) {
    for (const match of text.matchAll(pattern)) {
      const name = match[1] as string;
      if (!PLATFORM_VARIABLE.test(name) && !read.has(name)) read.set(name, file);
    }
  }
  return read;
}

/** The variables named in the first column of the README's Configuration table. */
function documentedVariables(): Set<string> {
  const section = readme.split('\n## Configuration\n')[1]?.split('\n## ')[0] ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return new Set(rows.flatMap((row) => [...(row.split(' | ')[0] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1] as string)));
}

describe('README: configuration', () => {
  it('documents every environment variable the code reads', () => {
    // Act
    const documented = documentedVariables();
    const undocumented = [...variablesRead()].filter(([name]) => !documented.has(name)).map(([name, file]) => `${name} (${file})`);

    // Assess
    expect(documented.size).toBeGreaterThan(20);
    expect(undocumented).toEqual([]);
  });

  it('documents no variable that no code reads or sets', () => {
    // Act
    const stale = [...documentedVariables()].filter((name) => !sources.some(({ text }) => new RegExp(`\\b${name}\\b`).test(text)));

    // Assess
    expect(stale).toEqual([]);
  });
});
