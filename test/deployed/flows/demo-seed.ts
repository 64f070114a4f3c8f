import { seeders } from '../../../bin/local/seed/index.js';
import type { SeedClient } from '../../../bin/local/seed/seed-client.js';
import type { Flow } from '../support/flows.js';

/**
 * `npm start`'s demo data, created through the API: properties, contacts, forms with elements and
 * logic, events with the demo partner, invoices with payments, refunds and payouts, images and
 * checkouts. Realistic bodies for most groups, without restating them here.
 */
export const demoSeedFlow: Flow = {
  name: 'demo data through every writing group',
  async run({ call, tenant, baseUrl }) {
    const client: SeedClient = {
      workspaceId: tenant.workspaceId,
      apiKey: tenant.apiKey,
      baseUrl,
      async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
        const options = body instanceof Uint8Array ? { raw: body, headers } : { body, headers };
        const response = await call(`seed ${method} ${path}`, method, path, options);
        if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${response.text}`);
        return response.body as T;
      },
    };
    for (const seeder of seeders) await seeder.seed(client);
  },
};
