import { build, type BuildOptions } from 'esbuild';
import { fileURLToPath } from 'node:url';

/**
 * How `GET /widget/v1/boxoffice.js` is built from `widget/src` (TypeScript, no framework): one
 * minified IIFE for browsers. The CDK docs function runs the esbuild CLI with `widgetCliArgs` after
 * bundling (the file lands next to its bundle); running from source (`npm start`, tests), the docs
 * function builds it with `buildWidgetScript` on first request. Both read the options below.
 */
export const WIDGET_ENTRY = fileURLToPath(new URL('./src/boxoffice.ts', import.meta.url));

/** The gzip budget of the whole script (API.md "Embeddables"); a unit test fails above it. */
export const WIDGET_GZIP_BUDGET_BYTES = 25 * 1024;

/** Browsers with custom elements, shadow DOM and container queries; esbuild lowers newer syntax. */
const TARGETS = ['chrome105', 'edge105', 'firefox110', 'safari16'];

export const WIDGET_BUILD_OPTIONS = {
  entryPoints: [WIDGET_ENTRY],
  bundle: true,
  minify: true,
  format: 'iife',
  target: TARGETS,
  legalComments: 'none',
  charset: 'utf8',
} as const satisfies BuildOptions;

/** The same build for the esbuild command line (CDK `afterBundling` hook). */
export function widgetCliArgs(outfile: string): string[] {
  const options = WIDGET_BUILD_OPTIONS;
  return [
    WIDGET_ENTRY, '--bundle', '--minify', `--format=${options.format}`, `--target=${options.target.join(',')}`,
    `--legal-comments=${options.legalComments}`, `--charset=${options.charset}`, `--outfile=${outfile}`,
  ];
}

/** Builds the script in memory. */
export async function buildWidgetScript(): Promise<string> {
  const result = await build({ ...WIDGET_BUILD_OPTIONS, entryPoints: [...WIDGET_BUILD_OPTIONS.entryPoints], target: [...WIDGET_BUILD_OPTIONS.target], write: false });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no widget script');
  return output.text;
}
