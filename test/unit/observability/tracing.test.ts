import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tracer as PowertoolsTracer } from '@aws-lambda-powertools/tracer';
import type { captureLambdaHandler as powertoolsCapture } from '@aws-lambda-powertools/tracer/middleware';
import { describe, expect, it } from 'vitest';
import { Tracer as TracerOff } from '../../../shared/aws/tracer-off/index.js';
import { captureLambdaHandler as captureOff } from '../../../shared/aws/tracer-off/middleware.js';
import { traced, tracedClient, tracer } from '../../../shared/observability/tracing.js';

const FUNCTIONS_DIR = join(import.meta.dirname, '..', '..', '..', 'functions');

describe('tracing (shared/observability/tracing.ts)', () => {
  it('leaves handlers and clients as they are where the Tracer is off (outside Lambda, and in the default bundles)', () => {
    // Prepare
    const handler = async (event: { n: number }) => event.n + 1;
    const client = { middlewareStack: { add: () => undefined } };

    // Act
    const wrapped = traced(handler);
    const patched = tracedClient(client);

    // Assess
    expect(tracer.isTracingEnabled()).toBe(false);
    expect(wrapped).toBe(handler);
    expect(patched).toBe(client);
  });

  it('gives every function\'s handler to traced(), directly or through createGroupHandler', () => {
    // Prepare
    const entries = readdirSync(FUNCTIONS_DIR).map((fn) => [fn, readFileSync(join(FUNCTIONS_DIR, fn, 'handler.ts'), 'utf8')] as const);

    // Act
    const untraced = entries.filter(([, source]) => !/export const handler = (traced|createGroupHandler)\(/.test(source)).map(([fn]) => fn);

    // Assess
    expect(entries.length).toBeGreaterThan(15);
    expect(untraced).toEqual([]);
    expect(readFileSync(join(import.meta.dirname, '..', '..', '..', 'shared', 'http', 'group-handler.ts'), 'utf8')).toMatch(/return traced\(async \(event, context\)/);
  });
});

describe('the Tracer stand-in of the default bundles (shared/aws/tracer-off)', () => {
  it('has the real Tracer\'s signatures for what tracing.ts calls, and is never enabled', () => {
    // Prepare: these assignments compile only while the stand-in matches the real package.
    const standIn: Pick<PowertoolsTracer, 'isTracingEnabled' | 'captureAWSv3Client'> = new TracerOff({ serviceName: 'boxoffice-test' });
    const capture: (...args: Parameters<typeof powertoolsCapture>) => object = captureOff;
    const client = { send: () => undefined };

    // Act
    const patched = standIn.captureAWSv3Client(client);

    // Assess
    expect(standIn.isTracingEnabled()).toBe(false);
    expect(patched).toBe(client);
    expect(capture(tracer, { captureResponse: false })).toEqual({});
  });
});
