import { randomBytes } from 'node:crypto';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { kmsCipher } from '../../../shared/webhooks/kms-secret-cipher.js';
import { localCipher, newWebhookSecret, secretKey } from '../../../shared/webhooks/webhook-secrets.js';

const owner = { workspaceId: 'a'.repeat(24), endpointId: 'b'.repeat(24) };

describe('webhook secrets', () => {
  it('are whsec_ + base64 of 32 random bytes, never twice the same', () => {
    const [first, second] = [newWebhookSecret(), newWebhookSecret()];
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(first)).toHaveLength(32);
    expect(first).not.toBe(second);
  });

  it('are stored by the local cipher as ciphertext that does not contain them and decrypts back', async () => {
    // Prepare
    const cipher = localCipher(randomBytes(32));
    const secret = newWebhookSecret();
    // Act
    const ciphertext = await cipher.encrypt(secret, owner);
    // Assess
    expect(ciphertext).not.toContain(secret.slice(6));
    expect(ciphertext).not.toBe(await cipher.encrypt(secret, owner));
    await expect(cipher.decrypt(ciphertext, owner)).resolves.toBe(secret);
  });

  it('do not decrypt for another endpoint or with another key', async () => {
    const key = randomBytes(32);
    const ciphertext = await localCipher(key).encrypt(newWebhookSecret(), owner);
    await expect(localCipher(key).decrypt(ciphertext, { ...owner, endpointId: 'c'.repeat(24) })).rejects.toThrow();
    await expect(localCipher(randomBytes(32)).decrypt(ciphertext, owner)).rejects.toThrow();
  });

  it('are encrypted by KMS with an encryption context naming the purpose, workspace and endpoint', async () => {
    // Prepare
    const kms = mockClient(KMSClient);
    kms.on(EncryptCommand).resolves({ CiphertextBlob: Buffer.from('blob') });
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.from('whsec_plain') });
    const cipher = kmsCipher('arn:aws:kms:us-east-1:111122223333:key/k', new KMSClient({ region: 'us-east-1' }));
    // Act
    const ciphertext = await cipher.encrypt('whsec_plain', owner);
    const plain = await cipher.decrypt(ciphertext, owner);
    // Assess
    const expectedContext = { purpose: 'webhook-endpoint-secret', ...owner };
    expect(kms.commandCalls(EncryptCommand)[0]?.args[0].input).toMatchObject({ KeyId: 'arn:aws:kms:us-east-1:111122223333:key/k', EncryptionContext: expectedContext });
    expect(kms.commandCalls(DecryptCommand)[0]?.args[0].input).toMatchObject({ EncryptionContext: expectedContext });
    expect(ciphertext).toBe(`kms.v1.${Buffer.from('blob').toString('base64')}`);
    expect(plain).toBe('whsec_plain');
    kms.restore();
  });
});
