import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the CDK bundling puts the built widget script, next to the docs bundle (lib/group-functions.ts). */
export const BUNDLED_WIDGET_DIR = 'widget';
export const WIDGET_FILE_NAME = 'boxoffice.js';

let loaded: Promise<string> | undefined;

async function read(): Promise<string> {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), BUNDLED_WIDGET_DIR, WIDGET_FILE_NAME);
  if (existsSync(bundled)) return readFileSync(bundled, 'utf8');
  // Running from source (npm start, tests): build it from widget/src, always current. The specifier is
  // computed, so esbuild leaves this import (and esbuild itself) out of the Lambda bundle, where the
  // built file above always exists.
  const builder = new URL('../../widget/build-widget.ts', import.meta.url).href;
  const { buildWidgetScript } = (await import(builder)) as typeof import('../../widget/build-widget.js');
  return buildWidgetScript();
}

/** The widget script, read (or built) once per process. */
export function loadWidgetScript(): Promise<string> {
  loaded ??= read().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}
