import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The one set of credentials the tier hands its functions (Lambda puts the role's in the environment). */
export interface StandInCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export interface SignedRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** RFC 3986 encoding, as SigV4 canonical query strings need it. */
function encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
export const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** Parses `X-Amz-Date`/`x-amz-date` (`20261123T191655Z`). */
function amzDate(value: string): Date {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return new Date(Number.NaN);
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s));
}

/**
 * Checks a request's Signature Version 4 as AWS services do, in the Authorization header or in a
 * presigned URL (expiry included), for `service`. The payload hash is `x-amz-content-sha256` when sent
 * (S3), else the body's. Returns why the request is refused, or undefined.
 */
export function verifySigV4(request: SignedRequest, credentials: StandInCredentials, service: string): Refusal | undefined {
  const query = request.url.searchParams;
  const presigned = query.has('X-Amz-Signature');
  let credential: string;
  let signedHeaders: string;
  let signature: string;
  let date: string;
  let payloadHash: string;
  if (presigned) {
    credential = query.get('X-Amz-Credential') ?? '';
    signedHeaders = query.get('X-Amz-SignedHeaders') ?? '';
    signature = query.get('X-Amz-Signature') ?? '';
    date = query.get('X-Amz-Date') ?? '';
    payloadHash = 'UNSIGNED-PAYLOAD';
    const expires = Number(query.get('X-Amz-Expires'));
    if (!Number.isInteger(expires) || expires < 1 || expires > 604_800) return { status: 400, code: 'AuthorizationQueryParametersError', message: 'X-Amz-Expires must be 1..604800 seconds' };
    if (amzDate(date).getTime() + expires * 1000 < Date.now()) return { status: 403, code: 'AccessDenied', message: 'Request has expired' };
  } else {
    const header = String(request.headers.authorization ?? '');
    const match = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([a-f0-9]+)$/.exec(header);
    if (!match) return { status: 403, code: 'AccessDenied', message: 'Missing or malformed Authorization' };
    [, credential, signedHeaders, signature] = match as unknown as [string, string, string, string];
    date = String(request.headers['x-amz-date'] ?? '');
    const declared = request.headers['x-amz-content-sha256'];
    payloadHash = declared === undefined ? sha256Hex(request.body) : String(declared);
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && !payloadHash.startsWith('STREAMING-') && payloadHash !== sha256Hex(request.body)) {
      return { status: 400, code: 'XAmzContentSHA256Mismatch', message: 'The provided x-amz-content-sha256 header does not match what was computed.' };
    }
  }
  const [accessKeyId, day, region, scopeService] = credential.split('/');
  if (accessKeyId !== credentials.accessKeyId) return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  if (scopeService !== service) return { status: 403, code: 'SignatureDoesNotMatch', message: `Credential should be scoped to correct service: '${service}'.` };
  const canonicalQuery = [...query.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [encode(name), encode(value)])
    .sort(([a, av], [b, bv]) => (a === b ? (av as string).localeCompare(bv as string) : (a as string) < (b as string) ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const names = signedHeaders.split(';');
  const canonicalHeaders = names.map((name) => `${name}:${String(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [request.method, request.url.pathname, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/${scopeService}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day as string), region as string), scopeService as string), 'aws4_request');
  const expected = hmac(key, stringToSign);
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  }
  return undefined;
}
