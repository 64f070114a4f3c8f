import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'bo_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40;
/** `bo_live_` then at least 32 base62 characters. */
export const API_KEY_PATTERN = /^bo_live_[0-9A-Za-z]{32,128}$/;

export type KeyScope = 'read_write' | 'read_only';

/** A new random key. Rejection sampling keeps every base62 character equally likely. */
export function generateApiKey(): string {
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  return API_KEY_PREFIX + secret;
}

/** SHA-256 of the key, hex. Keys have 238 bits of entropy, so an unsalted fast hash is sufficient. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** Extracts the key from an `Authorization: Bearer <key>` header; undefined when malformed. */
export function parseBearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  const key = match?.[1];
  return key && API_KEY_PATTERN.test(key) ? key : undefined;
}
