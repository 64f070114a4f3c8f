import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Which `npm start` serves which DynamoDB. Each server records its URL under the endpoint it uses, so
 * that `npm run admin -- key revoke` (pointed at the same DynamoDB by DYNAMODB_PORT or
 * DYNAMODB_ENDPOINT) flushes the authorizer cache of the server that holds those keys, whatever PORT
 * it listens on. In the repository's git-ignored `.local/`, beside the local uploads.
 */
export const RUNNING_APIS_FILE = join(import.meta.dirname, '../../.local/running-apis.json');

type Registry = Record<string, string>;

function read(file: string): Registry {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

function write(file: string, registry: Registry): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(registry, null, 2)}\n`);
}

/** Records that the API at `url` serves the DynamoDB at `dynamoEndpoint` (the latest server wins). */
export function recordRunningApi(dynamoEndpoint: string, url: string, file = RUNNING_APIS_FILE): void {
  write(file, { ...read(file), [dynamoEndpoint]: url });
}

/** Removes the record, if it is still this server's (another may have started on that DynamoDB since). */
export function forgetRunningApi(dynamoEndpoint: string, url: string, file = RUNNING_APIS_FILE): void {
  const registry = read(file);
  if (registry[dynamoEndpoint] !== url) return;
  delete registry[dynamoEndpoint];
  write(file, registry);
}

/** The URL of the running API recorded for `dynamoEndpoint`, if any. */
export function runningApiUrl(dynamoEndpoint: string, file = RUNNING_APIS_FILE): string | undefined {
  return read(file)[dynamoEndpoint];
}
