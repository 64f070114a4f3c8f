import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface StoredObject {
  body: Buffer;
  contentType: string;
  cacheControl: string | undefined;
  etag: string;
}

/** RFC 3986 encoding, as SigV4 canonical query strings need it. */
function encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** Parses `X-Amz-Date`/`x-amz-date` (`20261123T191655Z`). */
function amzDate(value: string): Date {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return new Date(Number.NaN);
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s));
}

/**
 * The few S3 operations Boxoffice uses (PutObject, presigned PUT, GetObject with Range, HeadObject,
 * CopyObject, DeleteObject), path-style, for the deployed-artifact tier only. Every request must carry
 * a valid Signature Version 4 for the one set of credentials the tier hands its functions, in the
 * Authorization header or in a presigned URL; a presigned URL is refused once expired, and the headers
 * it signed (Content-Type, Content-Length) must be sent with exactly the signed values, as S3 enforces.
 */
export class S3StandIn {
  private readonly objects = new Map<string, StoredObject>();
  private server: Server | undefined;
  /** Operations served, for tests of what the functions did. */
  readonly log: string[] = [];

  constructor(
    private readonly buckets: ReadonlySet<string>,
    private readonly credentials: { accessKeyId: string; secretAccessKey: string },
  ) {}

  async listen(): Promise<string> {
    this.server = createServer((request, response) => {
      this.serve(request, response).catch((error: unknown) => this.fail(response, 500, 'InternalError', String(error)));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  object(bucket: string, key: string): StoredObject | undefined {
    return this.objects.get(`${bucket}/${key}`);
  }

  private fail(response: ServerResponse, status: number, code: string, message: string): void {
    if (response.headersSent) return void response.end();
    response.writeHead(status, { 'Content-Type': 'application/xml' });
    response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
  }

  /** Verifies the request's SigV4 signature (header or presigned); returns the reason it is refused, if it is. */
  private authenticate(request: IncomingMessage, url: URL, body: Buffer): { status: number; code: string; message: string } | undefined {
    const query = url.searchParams;
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
      payloadHash = String(request.headers['x-amz-content-sha256'] ?? '');
      if (payloadHash !== 'UNSIGNED-PAYLOAD' && !payloadHash.startsWith('STREAMING-') && payloadHash !== sha256(body)) {
        return { status: 400, code: 'XAmzContentSHA256Mismatch', message: 'The provided x-amz-content-sha256 header does not match what was computed.' };
      }
    }
    const [accessKeyId, day, region, service] = credential.split('/');
    if (accessKeyId !== this.credentials.accessKeyId) return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
    const canonicalQuery = [...query.entries()]
      .filter(([name]) => name !== 'X-Amz-Signature')
      .map(([name, value]) => [encode(name), encode(value)])
      .sort(([a, av], [b, bv]) => (a === b ? (av as string).localeCompare(bv as string) : (a as string) < (b as string) ? -1 : 1))
      .map(([name, value]) => `${name}=${value}`)
      .join('&');
    const names = signedHeaders.split(';');
    const canonicalHeaders = names.map((name) => `${name}:${String(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
    const canonicalRequest = [request.method, url.pathname, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
    const scope = `${day}/${region}/${service}/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonicalRequest)].join('\n');
    const key = hmac(hmac(hmac(hmac(`AWS4${this.credentials.secretAccessKey}`, day as string), region as string), service as string), 'aws4_request');
    const expected = hmac(key, stringToSign);
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
    }
    return undefined;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(request.url ?? '/', 'http://s3');
    const refused = this.authenticate(request, url, body);
    if (refused) return this.fail(response, refused.status, refused.code, refused.message);
    const [, bucket = '', ...keyParts] = url.pathname.split('/');
    const key = decodeURIComponent(keyParts.join('/'));
    if (!this.buckets.has(bucket)) return this.fail(response, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    const id = `${bucket}/${key}`;
    const method = request.method ?? 'GET';
    this.log.push(`${method} ${id}${request.headers['x-amz-copy-source'] ? ` from ${String(request.headers['x-amz-copy-source'])}` : ''}`);

    if (method === 'PUT' && request.headers['x-amz-copy-source']) {
      const source = decodeURIComponent(String(request.headers['x-amz-copy-source']).replace(/^\//, '').split('?')[0] as string);
      const found = this.objects.get(source);
      if (!found) return this.fail(response, 404, 'NoSuchKey', 'The specified key does not exist.');
      const replace = request.headers['x-amz-metadata-directive'] === 'REPLACE';
      const copy: StoredObject = {
        ...found,
        contentType: replace ? String(request.headers['content-type'] ?? found.contentType) : found.contentType,
        cacheControl: replace ? (request.headers['cache-control'] as string | undefined) : found.cacheControl,
      };
      this.objects.set(id, copy);
      response.writeHead(200, { 'Content-Type': 'application/xml' });
      return void response.end(`<?xml version="1.0" encoding="UTF-8"?><CopyObjectResult><ETag>${copy.etag}</ETag><LastModified>${new Date().toISOString()}</LastModified></CopyObjectResult>`);
    }
    if (method === 'PUT') {
      const declared = request.headers['content-length'];
      if (declared !== undefined && Number(declared) !== body.length) return this.fail(response, 400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.');
      const etag = `"${createHash('md5').update(body).digest('hex')}"`;
      this.objects.set(id, { body, contentType: String(request.headers['content-type'] ?? 'binary/octet-stream'), cacheControl: request.headers['cache-control'] as string | undefined, etag });
      response.writeHead(200, { ETag: etag });
      return void response.end();
    }
    const found = this.objects.get(id);
    if (method === 'DELETE') {
      this.objects.delete(id);
      response.writeHead(204);
      return void response.end();
    }
    if (method !== 'GET' && method !== 'HEAD') return this.fail(response, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    if (!found) {
      // S3 answers a missing key with 403 to a caller without s3:ListBucket, which no function here has.
      if (method === 'HEAD') {
        response.writeHead(403);
        return void response.end();
      }
      return this.fail(response, 403, 'AccessDenied', 'Access Denied');
    }
    const headers: Record<string, string> = { 'Content-Type': found.contentType, ETag: found.etag, 'Accept-Ranges': 'bytes', ...(found.cacheControl ? { 'Cache-Control': found.cacheControl } : {}) };
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(request.headers.range ?? ''));
    let bytes = found.body;
    let status = 200;
    if (range) {
      const start = Number(range[1]);
      const end = Math.min(range[2] ? Number(range[2]) : found.body.length - 1, found.body.length - 1);
      if (start >= found.body.length) return this.fail(response, 416, 'InvalidRange', 'The requested range is not satisfiable');
      bytes = found.body.subarray(start, end + 1);
      headers['Content-Range'] = `bytes ${start}-${end}/${found.body.length}`;
      status = 206;
    }
    headers['Content-Length'] = String(bytes.length);
    response.writeHead(status, headers);
    response.end(method === 'HEAD' ? undefined : bytes);
  }
}
