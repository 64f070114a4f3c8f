import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { WIDGET_ENTRY, WIDGET_GZIP_BUDGET_BYTES, buildWidgetScript } from '../../../widget/build-widget.js';

describe('the widget script build', () => {
  it('stays within its gzip budget of 25 KiB', async () => {
    // Act
    const script = await buildWidgetScript();
    // Assess
    const gzipped = gzipSync(script, { level: 9 }).length;
    expect(WIDGET_GZIP_BUDGET_BYTES).toBe(25 * 1024);
    expect(gzipped, `boxoffice.js is ${gzipped} bytes gzip-compressed`).toBeLessThanOrEqual(WIDGET_GZIP_BUDGET_BYTES);
  });

  it('defines both custom elements and bundles the server\'s own logic evaluator', async () => {
    // Prepare
    const { metafile } = await build({ entryPoints: [WIDGET_ENTRY], bundle: true, write: false, metafile: true, format: 'iife' });
    // Act
    const script = await buildWidgetScript();
    // Assess
    expect(Object.keys(metafile.inputs)).toContain('shared/forms/logic-evaluator.ts');
    expect(script).toContain('"boxoffice-events"');
    expect(script).toContain('"boxoffice-form"');
  });

  it('keeps the logic evaluator free of heavy imports (no zod, no AWS SDK, no Node built-ins)', async () => {
    // Act
    const { metafile } = await build({ entryPoints: ['shared/forms/logic-evaluator.ts'], bundle: true, write: false, metafile: true, format: 'esm', platform: 'browser' });
    // Assess
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((path) => path.includes('node_modules'))).toEqual([]);
    expect(inputs.every((path) => path.startsWith('shared/forms/'))).toBe(true);
  });
});
