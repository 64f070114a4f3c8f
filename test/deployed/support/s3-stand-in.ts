import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveOnLoopback, type LoopbackServer } from './loopback-server.js';
import { verifySigV4, type StandInCredentials } from './sigv4.js';

interface StoredObject {
  body: Buffer;
  contentType: string;
  cacheControl: string | undefined;
  etag: string;
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
  private server: LoopbackServer | undefined;
  /** Operations served, for tests of what the functions did. */
  readonly log: string[] = [];

  constructor(
    private readonly buckets: ReadonlySet<string>,
    private readonly credentials: StandInCredentials,
  ) {}

  async listen(): Promise<string> {
    this.server = await serveOnLoopback((request, response) => this.serve(request, response), (response, error) => this.fail(response, 500, 'InternalError', String(error)));
    return this.server.url;
  }

  async close(): Promise<void> {
    await this.server?.close();
  }


  object(bucket: string, key: string): StoredObject | undefined {
    return this.objects.get(`${bucket}/${key}`);
  }

  private fail(response: ServerResponse, status: number, code: string, message: string): void {
    if (response.headersSent) return void response.end();
    response.writeHead(status, { 'Content-Type': 'application/xml' });
    response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(request.url ?? '/', 'http://s3');
    const refused = verifySigV4({ method: request.method ?? 'GET', url, headers: request.headers, body }, this.credentials, 's3');
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
