import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ConflictError } from '../../../shared/errors.js';
import { createPartner } from '../../../shared/partners/partners-repository.js';
import { createApiKey, createWorkspace } from '../../../shared/workspaces/workspaces-repository.js';

export interface Tenant {
  readonly workspaceId: string;
  readonly apiKey: string;
  readonly readOnlyKey: string;
  /** A partner whose referral code this tenant's events may carry. */
  readonly partnerCode: string;
}

/**
 * Workspaces, keys and partners, written the way `npm run admin` writes them, into the tables this
 * process is configured for (TABLE_NAME, DYNAMODB_ENDPOINT).
 */
export async function createTenants(names: readonly string[], partnerCodes: readonly string[]): Promise<Tenant[]> {
  for (const code of new Set(partnerCodes)) {
    try {
      await createPartner({ referral_code: code, firstName: 'Tier', lastName: 'Partner', companyName: 'Deployed tier', email: 'tier@example.com' });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  const tenants: Tenant[] = [];
  for (const [index, name] of names.entries()) {
    const workspace = await createWorkspace(name);
    const { apiKey } = await createApiKey(workspace.id, 'read_write');
    const { apiKey: readOnlyKey } = await createApiKey(workspace.id, 'read_only');
    tenants.push({ workspaceId: workspace.id, apiKey, readOnlyKey, partnerCode: partnerCodes[index % partnerCodes.length] as string });
  }
  return tenants;
}

const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./create-tenants.ts', import.meta.url));

/** The same, into a deployed table: like the README's first-key step, a separate process per table. */
export async function createDeployedTenants(tableName: string, endpoint: string, names: readonly string[], partnerCodes: readonly string[]): Promise<Tenant[]> {
  const { stdout } = await promisify(execFile)(TSX, [SCRIPT, JSON.stringify({ names, partnerCodes })], {
    env: { ...process.env, TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, POWERTOOLS_LOG_LEVEL: 'SILENT' },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Tenant[];
}

export function uniqueCode(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex').toUpperCase()}`;
}
