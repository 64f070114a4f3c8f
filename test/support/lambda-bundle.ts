import { statSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { BUNDLING } from '../../lib/boxoffice-function.js';

/** `BUNDLING` or one of its variants (`TRACED_BUNDLING`). */
export type Bundling = typeof BUNDLING;
import { REPO_ROOT } from '../../lib/paths.js';

/**
 * Size budget of every function's minified bundle (issue 16): the infra test fails above it, the bench
 * reports it (P1). Cold start grows with the bytes V8 has to compile.
 */
export const BUNDLE_BUDGET_KIB = 450;

/** The settings `BUNDLING` may use; anything else must be taught to `esbuildOptionsOf` first. */
const KNOWN = new Set(['format', 'target', 'mainFields', 'minify', 'sourceMap', 'sourcesContent', 'externalModules', 'banner', 'esbuildArgs']);
const KNOWN_ARGS = new Set(['--alias', '--legal-comments']);

function aliasesOf(value: string | readonly string[] | undefined): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const pair of value === undefined ? [] : typeof value === 'string' ? [value] : value) {
    const [from, to] = pair.split('=');
    if (!from || !to) throw new Error(`Unreadable --alias ${pair}`);
    aliases[from] = to;
  }
  return aliases;
}

/**
 * The esbuild build options that reproduce what CDK's `NodejsFunction` runs for `BUNDLING` (its CLI call:
 * `--bundle <entry> --target --platform=node --format --outfile --minify --sourcemap --sources-content=false --external:...
 * --banner:js --main-fields` plus `esbuildArgs`, from the project root). The bundling test checks that
 * the result is byte for byte CDK's bundle.
 */
export function esbuildOptionsOf(entry: string, outfile: string, bundling: Bundling = BUNDLING): BuildOptions {
  const unknown = Object.keys(bundling).filter((key) => !KNOWN.has(key));
  const args = bundling.esbuildArgs as Record<string, string | readonly string[]>;
  const unknownArgs = Object.keys(args).filter((key) => !KNOWN_ARGS.has(key));
  if (unknown.length > 0 || unknownArgs.length > 0) throw new Error(`esbuildOptionsOf does not know ${[...unknown, ...unknownArgs].join(', ')}`);
  return {
    entryPoints: [entry],
    bundle: true,
    target: bundling.target,
    platform: 'node',
    format: bundling.format,
    outfile,
    minify: bundling.minify,
    sourcemap: bundling.sourceMap,
    sourcesContent: bundling.sourcesContent,
    external: [...bundling.externalModules],
    banner: { js: bundling.banner },
    mainFields: [...bundling.mainFields],
    alias: aliasesOf(args['--alias']),
    ...(args['--legal-comments'] ? { legalComments: args['--legal-comments'] as BuildOptions['legalComments'] } : {}),
    absWorkingDir: REPO_ROOT,
    logLevel: 'silent',
  };
}

export interface BuiltBundle {
  /** The `index.mjs` Lambda loads. */
  file: string;
  bytes: number;
}

/** Bundles `entry` into `outdir/index.mjs` exactly as the deployed function is bundled. */
export async function bundleLikeCdk(entry: string, outdir: string, bundling: Bundling = BUNDLING): Promise<BuiltBundle> {
  const file = join(outdir, 'index.mjs');
  await build(esbuildOptionsOf(entry, file, bundling));
  return { file, bytes: statSync(file).size };
}
