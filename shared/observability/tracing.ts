import middy from '@middy/core';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';

/**
 * Powertools Tracer, for the stages deployed with `cdk deploy -c tracer=true`. Each invocation then gets a
 * `## index.handler` subsegment (annotated `ColdStart` and `Service`, errors as metadata, answers not
 * recorded: they carry personal data), with one subsegment per AWS SDK call and per outgoing `fetch` (KMS,
 * S3, webhook deliveries) beneath it.
 *
 * Off by default: its X-Ray SDK is ~120 KiB of every bundle and ~12 ms of CPU at every cold start (forms: 48 -> 60 ms), which
 * the cold-start budget (issue 16: at most 1.5x the baseline's load time) cannot take. The default bundles
 * alias the package to `shared/aws/tracer-off`, whose Tracer is never enabled; X-Ray active tracing still
 * records every invocation (init, invocation, overhead) on every stage. Outside Lambda (`npm start`, the
 * tests) the real Tracer loads and disables itself.
 */
export const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'boxoffice' });

/** The Lambda handler, traced when the Tracer is enabled; the same function otherwise. */
export function traced<H extends (event: never, context: never) => Promise<unknown>>(handler: H): H {
  if (!tracer.isTracingEnabled()) return handler;
  // middy calls the handler with the same arguments and resolves to its result: the type is the handler's.
  return middy(handler).use(captureLambdaHandler(tracer, { captureResponse: false })) as unknown as H;
}

/** An AWS SDK v3 client whose calls are subsegments when the Tracer is enabled (the same client either way). */
export function tracedClient<C extends object>(client: C): C {
  return tracer.captureAWSv3Client(client);
}
