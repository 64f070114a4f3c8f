/**
 * `node:stream/web` as the function bundles see it (an esbuild alias in `BUNDLING`, lib/). @middy/core
 * imports `ReadableStream` from it at load, for its response-streaming mode only (an `instanceof` on a
 * streamed body), which no function of ours uses; importing the module makes Node load its web-streams
 * implementation, ~2.7 ms of every cold start (issue 16, P1). This is the same class, looked up when
 * first used: Node's global `ReadableStream` (the one `node:stream/web` exports), which Node loads
 * lazily. `instanceof`, construction and static members all reach the real class.
 */
export const ReadableStream = new Proxy(function () {}, {
  get: (_target, key) => Reflect.get(globalThis.ReadableStream, key),
  construct: (_target, args) => Reflect.construct(globalThis.ReadableStream, args) as object,
}) as unknown as typeof globalThis.ReadableStream;
