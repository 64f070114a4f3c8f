import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, handlerEntry } from '../../../lib/paths.js';
import { reachableModules } from '../../../lib/source-graph.js';

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'source-graph-'));
  for (const [name, source] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), source);
  }
  return dir;
}

describe('reachableModules', () => {
  it('follows static, re-exported and dynamic imports, and skips type-only ones and packages', () => {
    // Prepare
    const dir = project({
      'entry.ts': "import { a } from './a.js';\nimport type { T } from './types.js';\nexport { b } from './b.js';\nimport * as z from 'zod';\nconst lazy = () => import('./lazy.js');\n",
      'a.ts': "import './side-effect.js';\nexport const a = 1;\n",
      'b.ts': 'export const b = 2;\n',
      'lazy.ts': 'export const c = 3;\n',
      'side-effect.ts': 'globalThis.x = 1;\n',
      'types.ts': "import { never } from './never.js';\nexport type T = string;\n",
      'never.ts': 'export const never = 0;\n',
    });
    const name = (file: string) => relative(REPO_ROOT, join(dir, file));

    // Act
    const modules = reachableModules(join(dir, 'entry.ts'));

    // Assess
    expect([...modules].sort()).toEqual(['entry.ts', 'a.ts', 'b.ts', 'lazy.ts', 'side-effect.ts'].map(name).sort());
  });

  it('finds the blob store behind the checkouts service (how checkouts resolve image URLs)', () => {
    // Act
    const modules = reachableModules(handlerEntry('checkouts'));

    // Assess
    expect(modules.has('shared/blob-store/index.ts')).toBe(true);
    expect(modules.has('functions/checkouts/handler.ts')).toBe(true);
  });
});
