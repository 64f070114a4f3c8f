import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local AES key of webhook secrets (`WEBHOOK_SECRETS_LOCAL_KEY`): kept in `<data-dir>` when data
 * is kept between runs (so stored secrets stay readable), otherwise fresh for each in-memory run.
 */
export function localWebhookSecretsKey(dataDir: string | undefined): string {
  if (!dataDir) return randomBytes(32).toString('base64');
  const file = join(dataDir, 'webhook-secrets.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
