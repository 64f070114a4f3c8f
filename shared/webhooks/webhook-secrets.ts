import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { kmsCipher } from './kms-secret-cipher.js';

/**
 * Webhook signing secrets. The sender needs the raw key to compute an HMAC, so a secret cannot be
 * stored as a hash: it is stored encrypted, bound to its workspace and endpoint. Deployed, AWS KMS
 * encrypts it (`WEBHOOK_SECRETS_KEY_ARN`, set by CDK); locally, AES-256-GCM with a local key
 * (`WEBHOOK_SECRETS_LOCAL_KEY`, base64 of 32 bytes, which wins when set). Secrets are never logged.
 */

const PREFIX = 'whsec_';

/** Names the use in every KMS call (encryption context); the IAM policies allow the key only with it. */
export const SECRET_ENCRYPTION_PURPOSE = 'webhook-endpoint-secret';

/** A new secret as Standard Webhooks defines it: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** The HMAC key of a secret: the base64-decoded part after `whsec_`. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** Whom a ciphertext belongs to: decrypting it for anything else fails. */
export interface SecretOwner {
  workspaceId: string;
  endpointId: string;
}

export interface SecretCipher {
  encrypt(secret: string, owner: SecretOwner): Promise<string>;
  decrypt(ciphertext: string, owner: SecretOwner): Promise<string>;
}

const LOCAL_PREFIX = 'local.v1.';

/** AES-256-GCM with the owner as additional authenticated data: a ciphertext moved to another endpoint does not decrypt. */
export function localCipher(key: Buffer): SecretCipher {
  if (key.length !== 32) throw new Error('WEBHOOK_SECRETS_LOCAL_KEY must be base64 of exactly 32 bytes');
  const aad = (owner: SecretOwner) => Buffer.from(`${owner.workspaceId}/${owner.endpointId}`);
  return {
    async encrypt(secret, owner) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(owner));
      const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return LOCAL_PREFIX + [iv, cipher.getAuthTag(), encrypted].map((part) => part.toString('base64url')).join('.');
    },
    async decrypt(ciphertext, owner) {
      if (!ciphertext.startsWith(LOCAL_PREFIX)) throw new Error('not a locally encrypted webhook secret');
      const [iv, tag, encrypted] = ciphertext.slice(LOCAL_PREFIX.length).split('.').map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !tag || !encrypted) throw new Error('malformed webhook secret ciphertext');
      const decipher = createDecipheriv('aes-256-gcm', key, iv).setAAD(aad(owner)).setAuthTag(tag);
      return Buffer.concat([decipher.update(encrypted), decipher.final()]).toString('utf8');
    },
  };
}

let cached: Promise<SecretCipher> | undefined;

/**
 * The process's cipher: KMS when `WEBHOOK_SECRETS_KEY_ARN` is set (deployed), else the local key. Only
 * the functions that handle secrets (the webhooks group and the sender) import this module, so no other
 * bundle holds the KMS signer. It is imported statically: a dynamic `import()` made esbuild wrap every
 * module the signer shares with the DynamoDB client in a lazy initialiser, which V8 then parses twice at
 * every cold start (the webhooks function loaded ~9% slower, issue 16 P1).
 */
export function secretCipher(): Promise<SecretCipher> {
  cached ??= (async () => {
    const keyArn = process.env.WEBHOOK_SECRETS_KEY_ARN;
    const localKey = process.env.WEBHOOK_SECRETS_LOCAL_KEY;
    // An explicit local key wins, so the deployed bundles can also run offline (artifact tests).
    if (keyArn && !localKey) {
      return kmsCipher(keyArn);
    }
    // A deployed function without its key would mint secrets nobody can read back: fail loudly instead.
    if (!localKey && process.env.AWS_LAMBDA_FUNCTION_NAME) throw new Error('Missing required environment variable WEBHOOK_SECRETS_KEY_ARN');
    // Without a configured key (unit tests), a per-process key: secrets then live as long as the process.
    return localCipher(localKey ? Buffer.from(localKey, 'base64') : randomBytes(32));
  })();
  return cached;
}
