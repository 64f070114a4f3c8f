/** The DynamoDB cost of one response, from the local `X-Db-Stats` header (`calls=..;rcu=..;wcu=..;items=..`). */
export interface DbStats {
  calls: number;
  rcu: number;
  wcu: number;
  items: number;
}

export function dbStats(response: { headers: Headers }): DbStats {
  const header = response.headers.get('x-db-stats') ?? '';
  const match = /calls=(\d+);rcu=([\d.]+);wcu=([\d.]+);items=(\d+)/.exec(header);
  if (!match) throw new Error(`No X-Db-Stats header in the response (got "${header}")`);
  return { calls: Number(match[1]), rcu: Number(match[2]), wcu: Number(match[3]), items: Number(match[4]) };
}
