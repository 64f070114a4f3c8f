import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { REPO_ROOT } from './paths.js';

/** `import ... from './x.js'`, `export ... from './x.js'`, `import './x.js'` and `import('./x.js')`. */
const SPECIFIERS = /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The project file a relative specifier names (sources import `./x.js`, the file is `./x.ts`). */
function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(fromFile), specifier);
  for (const candidate of [target.replace(/\.js$/, '.ts'), target, `${target}.ts`, resolve(target, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Every project source file a Lambda entry can load at run time (static and dynamic imports, not
 * type-only ones), as repository-relative paths. The same graph esbuild bundles, read in a few
 * milliseconds from the sources: what a function needs is derived from what its code uses.
 */
export function reachableModules(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [resolve(entry)];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    const name = relative(REPO_ROOT, file);
    if (seen.has(name)) continue;
    seen.add(name);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(SPECIFIERS)) {
      if (match[1]) continue; // `import type` / `export type`: erased, loads nothing
      const specifier = match[2] ?? match[3];
      const target = specifier ? resolveSpecifier(file, specifier) : undefined;
      if (target) pending.push(target);
    }
  }
  return seen;
}
