// Run by tenants.ts in its own process: the repositories read TABLE_NAME once per process.
import { createTenants } from './tenants.js';

const { names, partnerCodes } = JSON.parse(process.argv[2] ?? '{}') as { names: string[]; partnerCodes: string[] };
console.log(JSON.stringify(await createTenants(names, partnerCodes)));
