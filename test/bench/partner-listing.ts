import { measure, timedRequest, type BenchEnvironment } from './harness.js';

const DAY = 86_400_000;

async function partnerWithEvents(env: BenchEnvironment, code: string, count: number): Promise<void> {
  // Loaded lazily: runtime modules read the environment the harness sets up.
  const { createPartner } = await import('../../shared/partners/partners-repository.js');
  await createPartner({ referral_code: code, companyName: `Bench ${code}` });
  for (let i = 0; i < count; i += 1) {
    const start = new Date(Date.now() + (i - count / 2) * DAY);
    const response = await fetch(`${env.server.url}/v1/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${env.workspace.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: `Event ${i}`, start: start.toISOString(), end: new Date(start.getTime() + 3_600_000).toISOString(), type: 'event',
        status: 'published', visibility: 'public', referral_code: code, products: [{ name: 'GA', price: 1_000 + i, required: true }],
      }),
    });
    if (response.status !== 201) throw new Error(`creating bench event failed: ${response.status} ${await response.text()}`);
  }
}

/**
 * The partner listing goal: a page costs reads proportional to (page + 1) * limit, not to the partner's
 * total events. Compare the same pages for a small and a large partner.
 */
export async function partnerListingBench(env: BenchEnvironment): Promise<Record<string, string | number>[]> {
  const small = `BENCH-SMALL-${Date.now()}`;
  const large = `BENCH-LARGE-${Date.now()}`;
  await partnerWithEvents(env, small, 25);
  await partnerWithEvents(env, large, 250);
  const rows: Record<string, string | number>[] = [];
  for (const [label, code] of [['25 events', small], ['250 events', large]] as const) {
    for (const query of ['limit=20', 'limit=20&sort=end&direction=desc', 'limit=10&filter=upcoming', 'limit=5&page=3']) {
      rows.push(await measure(`GET /partner/events (${label}) ${query}`, 50, () => timedRequest(`${env.server.url}/partner/events?referral_code=${code}&${query}`)));
    }
  }
  return rows;
}
