import { execFile } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { App, Stack } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLING, TRACED_BUNDLING, tracerRequested } from '../../lib/boxoffice-function.js';
import { handlerEntry } from '../../lib/paths.js';
import { bundleLikeCdk, type Bundling } from '../support/lambda-bundle.js';

// `cdk deploy -c tracer=true` (Powertools Tracer) against the default bundles (X-Ray active tracing only):
// the system function is bundled both ways and invoked as Lambda runs it, with the X-Ray daemon's UDP
// port and DynamoDB's endpoint played by this test.

const outdir = mkdtempSync(join(tmpdir(), 'boxoffice-tracer-'));
const run = promisify(execFile);

/** An X-Ray segment document as the X-Ray SDK sends it to the daemon. */
interface SegmentDocument {
  name: string;
  trace_id: string;
  parent_id?: string;
  id: string;
  namespace?: string;
  annotations?: Record<string, unknown>;
  aws?: { operation?: string };
}

let daemon: Socket;
let dynamo: Server;
const received: SegmentDocument[] = [];

beforeAll(async () => {
  daemon = createSocket('udp4');
  // Each datagram: a JSON header line, then the segment document.
  daemon.on('message', (datagram) => received.push(JSON.parse(datagram.toString('utf8').split('\n')[1] as string) as SegmentDocument));
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  // DynamoDB for the health check's GetItem: the item is absent, which the check takes as connected.
  dynamo = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}'));
  });
  await new Promise<void>((resolve) => dynamo.listen(0, '127.0.0.1', resolve));
});

afterAll(() => {
  daemon.close();
  dynamo.close();
  rmSync(outdir, { recursive: true, force: true });
});

const TRACE_ID = '1-67891233-abcdef012345678912345678';
const PARENT_ID = '53995c3f42cd8ad8';

/** Bundles the system function with `bundling`, invokes `GET /health` in a Lambda-like process and returns the segments the daemon got. */
async function invokeHealth(name: string, bundling: Bundling): Promise<{ statusCode: number; segments: SegmentDocument[] }> {
  const { file } = await bundleLikeCdk(handlerEntry('system'), join(outdir, name), bundling);
  const script = `const { handler } = await import(${JSON.stringify(pathToFileURL(file).href)});
const context = { awsRequestId: 'req-1', functionName: 'boxoffice-system', getRemainingTimeInMillis: () => 10000 };
const event = { httpMethod: 'GET', path: '/health', resource: '/health', headers: {}, requestContext: { requestId: 'req-1' } };
const result = await handler(event, context);
process.stdout.write(JSON.stringify({ statusCode: result.statusCode }));`;
  const { port } = daemon.address();
  received.length = 0;
  const { stdout } = await run(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
    env: {
      PATH: process.env.PATH,
      // What Lambda sets in a function's environment.
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
      AWS_LAMBDA_FUNCTION_NAME: 'boxoffice-system',
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      LAMBDA_TASK_ROOT: outdir,
      _HANDLER: 'index.handler',
      _X_AMZN_TRACE_ID: `Root=${TRACE_ID};Parent=${PARENT_ID};Sampled=1`,
      AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${port}`,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret',
      // What CDK sets.
      TABLE_NAME: 'tracer-test',
      POWERTOOLS_SERVICE_NAME: 'boxoffice-system',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      DYNAMODB_ENDPOINT: `http://127.0.0.1:${(dynamo.address() as AddressInfo).port}`,
    },
    encoding: 'utf8',
  });
  // The SDK sends each subsegment as it closes; give the last datagrams time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { ...(JSON.parse(stdout) as { statusCode: number }), segments: [...received] };
}

describe('Powertools Tracer (cdk deploy -c tracer=true)', () => {
  it('traces the handler and each DynamoDB call as subsegments of the invocation\'s trace', async () => {
    // Act
    const { statusCode, segments } = await invokeHealth('traced', TRACED_BUNDLING);

    // Assess
    expect(statusCode).toBe(200);
    const handler = segments.find((segment) => segment.name === '## index.handler');
    expect(handler).toMatchObject({ trace_id: TRACE_ID, parent_id: PARENT_ID, annotations: { ColdStart: true, Service: 'boxoffice-system' } });
    const getItem = segments.find((segment) => segment.name === 'DynamoDB');
    expect(getItem).toMatchObject({ trace_id: TRACE_ID, parent_id: handler?.id, namespace: 'aws', aws: { operation: 'GetItem' } });
  });

  it('is absent from the default bundles, which send no segment of their own (X-Ray active tracing records the invocation)', async () => {
    // Act
    const { statusCode, segments } = await invokeHealth('default', BUNDLING);

    // Assess
    expect(statusCode).toBe(200);
    expect(segments).toEqual([]);
    const code = readFileSync(join(outdir, 'default', 'index.mjs'), 'utf8');
    expect(code).not.toContain('AWS_XRAY_DAEMON_ADDRESS');
    expect(readFileSync(join(outdir, 'traced', 'index.mjs'), 'utf8')).toContain('AWS_XRAY_DAEMON_ADDRESS');
  });

  it('is asked for with the tracer context (the CLI passes it as a string)', () => {
    // Prepare
    const stacks = [undefined, 'true', true, 'false'].map((value) => new Stack(new App(value === undefined ? {} : { context: { tracer: value } }), 'S'));

    // Act
    const requested = stacks.map((stack) => tracerRequested(stack));

    // Assess
    expect(requested).toEqual([false, true, true, false]);
  });
});
