/** What `npm start` prints once it is ready: where things are, what to try, and the key, last. */
export interface BannerFacts {
  url: string;
  endpoint: string | undefined;
  tableName: string;
  demo: { workspaceId: string; apiKey: string; created: boolean };
  nodeVersion: string;
}

/** The Node major the AWS SDK requires for its releases after the first week of January 2027. */
export const SDK_FUTURE_NODE_MAJOR = 22;

/**
 * The start banner. The demo API key is its last line, so it is the last thing `npm start` prints
 * (request logs follow only when requests come in). On Node older than the SDK's coming requirement,
 * one line replaces the SDK's own nine-line notice (silenced in `applyLocalEnvironment`).
 */
export function startBanner(facts: BannerFacts): string {
  const major = Number(/^v(\d+)/.exec(facts.nodeVersion)?.[1]);
  return [
    '',
    `Boxoffice API listening on ${facts.url}`,
    `  DynamoDB:          ${facts.endpoint ?? 'AWS'}   table: ${facts.tableName}`,
    `  Demo workspace:    ${facts.demo.workspaceId}${facts.demo.created ? ' (seeded with demo data)' : ''}`,
    `  API docs:          ${facts.url}/docs`,
    `  Widgets demo:      ${facts.url}/widget/demo`,
    '  Webhooks:          delivered from DynamoDB Local\'s stream; retries after 1 s, 2 s, 4 s, ... (README "Webhooks")',
    ...(major < SDK_FUTURE_NODE_MAJOR
      ? [`  Node ${facts.nodeVersion}: fine for this project; AWS SDK releases after early January 2027 need Node ${SDK_FUTURE_NODE_MAJOR}+ (Lambda runs Node 24).`]
      : []),
    '',
    'Try it (the README "Quick tour" goes on from here: a form, a response, an invoice paid):',
    `  export API=${facts.url} KEY=${facts.demo.apiKey}`,
    '  curl -s -H "Authorization: Bearer $KEY" $API/v1/',
    '',
    'Ctrl-C stops the server.',
    `Demo API key: ${facts.demo.apiKey}`,
  ].join('\n');
}
