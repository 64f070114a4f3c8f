/**
 * Stands in for `@aws-lambda-powertools/tracer` in the Lambda bundles unless a stage is deployed with
 * `-c tracer=true` (an esbuild alias set in `lib/boxoffice-function.ts`; the local server and the tests load
 * the real package, which disables itself outside Lambda). It is the real Tracer with tracing off, minus
 * the X-Ray SDK (~120 KiB and ~12 ms of every cold start, measured on forms): never enabled, so `traced()` returns handlers
 * as they are and clients are not patched. Only what `shared/observability/tracing.ts` calls is here; a
 * type test holds it to the real class's signatures.
 */
export class Tracer {
  constructor(_options?: { serviceName?: string }) {}

  isTracingEnabled(): boolean {
    return false;
  }

  captureAWSv3Client<C>(client: C): C {
    return client;
  }
}
