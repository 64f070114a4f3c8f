import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCS_ASSETS, type DocsAsset } from '../../shared/http/routes/docs.js';

/**
 * Where the swagger-ui-dist files are: next to the bundle in Lambda (the CDK bundling copies them into
 * `swagger-ui/`, because esbuild cannot inline a 1.7 MB script usefully), or in node_modules locally.
 */
export const BUNDLED_ASSETS_DIR = 'swagger-ui';

function assetsDirectory(): string {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), BUNDLED_ASSETS_DIR);
  if (existsSync(bundled)) return bundled;
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

export interface LoadedAsset {
  readonly contentType: string;
  readonly text: string;
}

const cache = new Map<DocsAsset, LoadedAsset>();

/** Reads a docs asset once per cold start; the files never change within a deployment. */
export function loadDocsAsset(name: DocsAsset): LoadedAsset {
  let asset = cache.get(name);
  if (!asset) {
    asset = { contentType: DOCS_ASSETS[name], text: readFileSync(join(assetsDirectory(), name), 'utf8') };
    cache.set(name, asset);
  }
  return asset;
}
