import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Repository root: entries, the lockfile and node_modules are resolved from here. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Entry of a Lambda function: `functions/<name>/handler.ts`, the same file the local server loads. */
export function handlerEntry(name: string): string {
  return join(REPO_ROOT, 'functions', name, 'handler.ts');
}
