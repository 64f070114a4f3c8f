import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { SECRET_ENCRYPTION_PURPOSE, type SecretCipher, type SecretOwner } from './webhook-secrets.js';

const PREFIX = 'kms.v1.';

function context(owner: SecretOwner): Record<string, string> {
  return { purpose: SECRET_ENCRYPTION_PURPOSE, workspaceId: owner.workspaceId, endpointId: owner.endpointId };
}

/**
 * KMS Encrypt/Decrypt of the secret itself: 32 bytes of key material is far below KMS's 4 KiB limit,
 * so no data key is needed. The encryption context binds a ciphertext to its workspace and endpoint
 * (and appears in CloudTrail), so a ciphertext copied to another endpoint does not decrypt.
 */
export function kmsCipher(keyArn: string, client = new KMSClient({ maxAttempts: 3 })): SecretCipher {
  return {
    async encrypt(secret, owner) {
      const { CiphertextBlob } = await client.send(new EncryptCommand({ KeyId: keyArn, Plaintext: Buffer.from(secret, 'utf8'), EncryptionContext: context(owner) }));
      if (!CiphertextBlob) throw new Error('KMS returned no ciphertext');
      return PREFIX + Buffer.from(CiphertextBlob).toString('base64');
    },
    async decrypt(ciphertext, owner) {
      if (!ciphertext.startsWith(PREFIX)) throw new Error('not a KMS-encrypted webhook secret');
      const { Plaintext } = await client.send(new DecryptCommand({
        KeyId: keyArn, CiphertextBlob: Buffer.from(ciphertext.slice(PREFIX.length), 'base64'), EncryptionContext: context(owner),
      }));
      if (!Plaintext) throw new Error('KMS returned no plaintext');
      return Buffer.from(Plaintext).toString('utf8');
    },
  };
}
