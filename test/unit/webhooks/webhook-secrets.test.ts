import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KmsError, kmsCipher, type KmsTransport } from '../../../shared/webhooks/kms-secret-cipher.js';
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

  it('are encrypted by KMS with an encryption context naming the purpose, workspace and endpoint, in SigV4-signed calls', async () => {
    // Prepare
    const sent: { hostname: string; headers: Record<string, string>; body: string }[] = [];
    const transport: KmsTransport = async (request) => {
      sent.push(request);
      const payload = JSON.parse(request.body) as Record<string, string>;
      return request.headers['x-amz-target'] === 'TrentService.Encrypt'
        ? { statusCode: 200, body: JSON.stringify({ CiphertextBlob: Buffer.from(`sealed:${payload.Plaintext}`).toString('base64') }) }
        : { statusCode: 200, body: JSON.stringify({ Plaintext: Buffer.from(payload.CiphertextBlob as string, 'base64').toString().replace('sealed:', '') }) };
    };
    const cipher = kmsCipher('arn:aws:kms:eu-west-1:111122223333:key/k', { region: 'eu-west-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }, transport });
    // Act
    const ciphertext = await cipher.encrypt('whsec_plain', owner);
    const plain = await cipher.decrypt(ciphertext, owner);
    // Assess
    const expectedContext = { purpose: 'webhook-endpoint-secret', ...owner };
    expect(plain).toBe('whsec_plain');
    expect(ciphertext).toMatch(/^kms\.v1\./);
    expect(sent.map((request) => request.headers['x-amz-target'])).toEqual(['TrentService.Encrypt', 'TrentService.Decrypt']);
    for (const request of sent) {
      expect(request.hostname).toBe('kms.eu-west-1.amazonaws.com');
      expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/kms\/aws4_request, SignedHeaders=.*x-amz-target.*, Signature=[0-9a-f]{64}$/);
      expect(JSON.parse(request.body)).toMatchObject({ KeyId: 'arn:aws:kms:eu-west-1:111122223333:key/k', EncryptionContext: expectedContext });
    }
  });

  it('calls another KMS endpoint when given one (the deployed-artifact tier\'s stand-in), signing its host', async () => {
    // Prepare
    const sent: Parameters<KmsTransport>[0][] = [];
    const transport: KmsTransport = async (request) => {
      sent.push(request);
      return { statusCode: 200, body: JSON.stringify({ CiphertextBlob: 'c2VhbGVk' }) };
    };
    // Act
    await kmsCipher('k', { region: 'us-east-1', credentials: { accessKeyId: 'A', secretAccessKey: 'S' }, transport, endpoint: 'http://127.0.0.1:4599' }).encrypt('whsec_x', owner);
    // Assess
    expect(sent[0]).toMatchObject({ protocol: 'http:', hostname: '127.0.0.1', port: 4599, headers: expect.objectContaining({ host: '127.0.0.1:4599' }) });
    expect(sent[0]?.headers.authorization).toMatch(/SignedHeaders=[^,]*host/);
  });

  it('surfaces a KMS refusal as a KmsError after one retry of throttling only', async () => {
    // Prepare
    let calls = 0;
    const answer = (statusCode: number, type: string): KmsTransport => async () => {
      calls += 1;
      return { statusCode, body: JSON.stringify({ __type: type, message: 'no' }) };
    };
    const options = { region: 'us-east-1', credentials: { accessKeyId: 'A', secretAccessKey: 'S' } };
    // Act + Assess
    await expect(kmsCipher('k', { ...options, transport: answer(400, 'AccessDeniedException') }).encrypt('whsec_x', owner)).rejects.toThrow(KmsError);
    expect(calls).toBe(1);
    calls = 0;
    await expect(kmsCipher('k', { ...options, transport: answer(400, 'ThrottlingException') }).encrypt('whsec_x', owner)).rejects.toThrow(/ThrottlingException/);
    expect(calls).toBe(2);
  });
});
