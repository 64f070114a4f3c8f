import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveOnLoopback, type LoopbackServer } from './loopback-server.js';
import { verifySigV4, type StandInCredentials } from './sigv4.js';

/** An encryption context as KMS binds it: the same pairs in any order are the same context. */
function canonicalContext(context: unknown): Buffer {
  const pairs = Object.entries((context ?? {}) as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Buffer.from(JSON.stringify(pairs), 'utf8');
}

/**
 * KMS's JSON API for the two operations Boxoffice calls (TrentService.Encrypt and Decrypt), for the
 * deployed-artifact tier only. Every request must carry a valid SigV4 signature for service `kms`;
 * only the template's keys exist; a ciphertext names its key and is bound to its encryption context
 * (AES-256-GCM with the context as additional data), so decrypting it under another context or key
 * fails with InvalidCiphertextException, as KMS fails.
 */
export class KmsStandIn {
  private readonly material = randomBytes(32);
  private server: LoopbackServer | undefined;
  /** Operations served (`Encrypt <key ARN>`), for tests of what the functions did. */
  readonly log: string[] = [];

  constructor(private readonly keyArns: ReadonlySet<string>, private readonly credentials: StandInCredentials) {}

  async listen(): Promise<string> {
    this.server = await serveOnLoopback((request, response) => this.serve(request, response), (response, error) => this.answer(response, 500, { __type: 'KMSInternalException', message: String(error) }));
    return this.server.url;
  }

  async close(): Promise<void> {
    await this.server?.close();
  }


  private answer(response: ServerResponse, status: number, body: Record<string, unknown>): void {
    if (response.headersSent) return void response.end();
    response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' });
    response.end(JSON.stringify(body));
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(request.url ?? '/', 'http://kms');
    const refused = verifySigV4({ method: request.method ?? 'POST', url, headers: request.headers, body }, this.credentials, 'kms');
    if (refused) return this.answer(response, refused.status === 400 ? 400 : 403, { __type: refused.code === 'InvalidAccessKeyId' ? 'UnrecognizedClientException' : 'InvalidSignatureException', message: refused.message });
    const operation = String(request.headers['x-amz-target'] ?? '').replace(/^TrentService\./, '');
    const input = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
    const keyId = String(input.KeyId ?? '');
    this.log.push(`${operation} ${keyId}`);
    if (!this.keyArns.has(keyId)) return this.answer(response, 400, { __type: 'NotFoundException', message: `Key '${keyId}' does not exist` });
    const aad = canonicalContext(input.EncryptionContext);
    if (operation === 'Encrypt') {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', this.material, iv);
      cipher.setAAD(Buffer.concat([Buffer.from(keyId), aad]));
      const sealed = Buffer.concat([cipher.update(Buffer.from(String(input.Plaintext ?? ''), 'base64')), cipher.final()]);
      const blob = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
      return this.answer(response, 200, { CiphertextBlob: blob, KeyId: keyId, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
    }
    if (operation === 'Decrypt') {
      const blob = Buffer.from(String(input.CiphertextBlob ?? ''), 'base64');
      try {
        const decipher = createDecipheriv('aes-256-gcm', this.material, blob.subarray(0, 12));
        decipher.setAAD(Buffer.concat([Buffer.from(keyId), aad]));
        decipher.setAuthTag(blob.subarray(12, 28));
        const plaintext = Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]);
        return this.answer(response, 200, { Plaintext: plaintext.toString('base64'), KeyId: keyId, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
      } catch {
        return this.answer(response, 400, { __type: 'InvalidCiphertextException', message: '' });
      }
    }
    return this.answer(response, 400, { __type: 'UnknownOperationException', message: `${operation} is not emulated` });
  }
}
