/** `@aws-lambda-powertools/tracer/middleware` of the stand-in (see index.ts): never used, as tracing is off. */
export function captureLambdaHandler(_tracer: unknown, _options?: { captureResponse?: boolean }): Record<string, never> {
  return {};
}
