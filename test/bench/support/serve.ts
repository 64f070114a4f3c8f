/**
 * The local server alone in its own process, for the throughput suite: the load generator runs in the
 * bench process, so client and server do not share one event loop. Expects the environment of
 * `startBenchEnvironment` (DynamoDB endpoint, tables); prints `{"url": ...}` once listening.
 */
const { startLocalServer } = await import('../../../bin/local/server.js');
const server = await startLocalServer({ port: 0 });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
