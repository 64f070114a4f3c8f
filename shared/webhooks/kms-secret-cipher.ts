import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';
import { SECRET_ENCRYPTION_PURPOSE, type SecretCipher, type SecretOwner } from './webhook-secrets.js';

const PREFIX = 'kms.v1.';

type SourceData = string | ArrayBuffer | ArrayBufferView;
interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

function context(owner: SecretOwner): Record<string, string> {
  return { purpose: SECRET_ENCRYPTION_PURPOSE, workspaceId: owner.workspaceId, endpointId: owner.endpointId };
}

const bytes = (data: SourceData): Buffer => (typeof data === 'string' ? Buffer.from(data, 'utf8') : ArrayBuffer.isView(data)
  ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data));

/** SHA-256 (and HMAC-SHA-256) from node:crypto in the shape the SigV4 signer takes. */
class Sha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(this.secret));
  }
  update(chunk: Uint8Array): void {
    this.hash.update(chunk);
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

/** A KMS API error (`__type` of its JSON error body), e.g. `AccessDeniedException`, `InvalidCiphertextException`. */
export class KmsError extends Error {
  constructor(readonly type: string, message: string, readonly statusCode: number) {
    super(`KMS ${type}: ${message}`);
    this.name = 'KmsError';
  }
}

/** One round trip (HTTPS to KMS; HTTP only to the deployed-artifact tier's stand-in); replaceable in tests. */
export type KmsTransport = (request: { protocol: 'https:' | 'http:'; hostname: string; port?: number; path: string; headers: Record<string, string>; body: string }) => Promise<{ statusCode: number; body: string }>;

const nodeTransport: KmsTransport = ({ protocol, hostname, port, path, headers, body }) => new Promise((resolve, reject) => {
  // Looked up on the first call: an import would make every cold start of the functions that bundle
  // the cipher load node:http, which only the deployed tier's local KMS stand-in uses (issue 16, P1).
  const { request } = process.getBuiltinModule(protocol === 'http:' ? 'node:http' : 'node:https');
  const outgoing = request({ hostname, port, path, method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, timeout: 5_000 }, (response) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    response.on('error', reject);
  });
  outgoing.on('timeout', () => outgoing.destroy(new Error('KMS request timed out')));
  outgoing.on('error', reject);
  outgoing.end(body);
});

export interface KmsClientOptions {
  region?: string;
  credentials?: Credentials | (() => Promise<Credentials>);
  transport?: KmsTransport;
  /** Another KMS endpoint (`KMS_ENDPOINT`): set only by the deployed-artifact tier, for its KMS stand-in. */
  endpoint?: string;
}

/**
 * KMS's JSON API (`TrentService.Encrypt` / `Decrypt`) signed with the SDK's own SigV4 signer. Not
 * `@aws-sdk/client-kms`: its ~50 KiB of operation schemas would push the webhooks function past the
 * 450 KiB bundle budget, for two calls with fixed shapes. Credentials are the execution role's, which
 * Lambda puts in the environment. A throttled or failed call is tried once more, then surfaces (503/500).
 */
export function kmsJsonCall(options: KmsClientOptions = {}) {
  const region = options.region ?? process.env.AWS_REGION ?? 'us-east-1';
  const endpoint = new URL(options.endpoint ?? process.env.KMS_ENDPOINT ?? `https://kms.${region}.amazonaws.com`);
  const protocol = endpoint.protocol === 'http:' ? 'http:' : 'https:';
  const { hostname, host } = endpoint;
  const port = endpoint.port ? Number(endpoint.port) : undefined;
  const signer = new SignatureV4({ service: 'kms', region, credentials: options.credentials ?? fromEnv(), sha256: Sha256, uriEscapePath: true });
  const transport = options.transport ?? nodeTransport;
  return async (operation: 'Encrypt' | 'Decrypt', payload: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const body = JSON.stringify(payload);
    for (let attempt = 1; ; attempt += 1) {
      const signed = await signer.sign({
        method: 'POST', protocol, hostname, port, path: '/', query: {}, body,
        headers: { host, 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `TrentService.${operation}` },
      });
      const response = await transport({ protocol, hostname, port, path: '/', headers: signed.headers, body });
      const parsed = (response.body ? JSON.parse(response.body) : {}) as Record<string, unknown>;
      if (response.statusCode >= 200 && response.statusCode < 300) return parsed;
      const type = String(parsed.__type ?? 'UnknownError').split('#').pop() as string;
      const retryable = response.statusCode >= 500 || /Throttl|LimitExceeded/.test(type);
      if (!retryable || attempt >= 2) throw new KmsError(type, String(parsed.message ?? parsed.Message ?? ''), response.statusCode);
    }
  };
}

/**
 * KMS Encrypt/Decrypt of the secret itself: 32 bytes of key material is far below KMS's 4 KiB limit,
 * so no data key is needed. The encryption context binds a ciphertext to its workspace and endpoint
 * (and appears in CloudTrail), so a ciphertext copied to another endpoint does not decrypt.
 */
export function kmsCipher(keyArn: string, options: KmsClientOptions = {}): SecretCipher {
  const call = kmsJsonCall(options);
  return {
    async encrypt(secret, owner) {
      const { CiphertextBlob } = await call('Encrypt', { KeyId: keyArn, Plaintext: Buffer.from(secret, 'utf8').toString('base64'), EncryptionContext: context(owner) });
      if (typeof CiphertextBlob !== 'string') throw new Error('KMS returned no ciphertext');
      return PREFIX + CiphertextBlob;
    },
    async decrypt(ciphertext, owner) {
      if (!ciphertext.startsWith(PREFIX)) throw new Error('not a KMS-encrypted webhook secret');
      const { Plaintext } = await call('Decrypt', { KeyId: keyArn, CiphertextBlob: ciphertext.slice(PREFIX.length), EncryptionContext: context(owner) });
      if (typeof Plaintext !== 'string') throw new Error('KMS returned no plaintext');
      return Buffer.from(Plaintext, 'base64').toString('utf8');
    },
  };
}
