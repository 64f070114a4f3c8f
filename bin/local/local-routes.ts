import { BLOB_KEY_PATTERN, contentTypeOfKey } from '../../shared/blob-store/blob-store.js';
import { LOCAL_BLOB_ROUTE_PREFIX, LocalBlobStore, localBlobDir } from '../../shared/blob-store/local-blob-store.js';
import { LOCAL_UPLOAD_ROUTE_PREFIX, LocalUploadStore, localUploadDir, verifyLocalUpload } from '../../shared/blob-store/local-upload-store.js';
import type { LocalRoute } from './server.js';
import { serveWidgetDemo } from './widget-demo.js';

/** The key of a local blob or upload path, or undefined when its percent-encoding is malformed (`%zz`). */
function keyOf(path: string, prefix: string): string | undefined {
  try {
    return decodeURIComponent(path.slice(prefix.length));
  } catch {
    return undefined;
  }
}

/**
 * Serves what the local blob store holds, the way CloudFront serves the S3 bucket when deployed:
 * GET/HEAD `/_local/blobs/<key>` with the content type of the key, no credential.
 */
const serveLocalBlobs: LocalRoute = async (request, response) => {
  const path = request.path;
  if (!path.startsWith(LOCAL_BLOB_ROUTE_PREFIX) || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  const key = keyOf(path, LOCAL_BLOB_ROUTE_PREFIX);
  const bytes = key !== undefined && BLOB_KEY_PATTERN.test(key) ? await new LocalBlobStore(localBlobDir()).get(key) : undefined;
  if (!bytes || key === undefined) {
    response.writeHead(404, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 'not_found', message: 'No stored file has this key.' } }));
    return true;
  }
  response.writeHead(200, {
    'Content-Type': contentTypeOfKey(key),
    'Content-Length': String(bytes.length),
    'Cache-Control': 'public, max-age=31536000, immutable',
  });
  response.end(request.method === 'HEAD' ? undefined : bytes);
  return true;
};

function s3Error(response: Parameters<LocalRoute>[1], status: number, code: string, message: string): true {
  response.writeHead(status, { 'Content-Type': 'application/xml' });
  response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
  return true;
}

/**
 * Receives two-step image uploads the way S3 receives a presigned PUT: `PUT /_local/uploads/<key>` with
 * the signed expiry, Content-Type and Content-Length (403 otherwise, with S3's error codes), the body
 * of exactly that length, stored in the local upload folder.
 */
const acceptLocalUploads: LocalRoute = async (request, response) => {
  const path = request.path;
  if (!path.startsWith(LOCAL_UPLOAD_ROUTE_PREFIX) || request.method !== 'PUT') return false;
  const key = keyOf(path, LOCAL_UPLOAD_ROUTE_PREFIX);
  if (key === undefined || !BLOB_KEY_PATTERN.test(key)) return s3Error(response, 400, 'InvalidArgument', 'Invalid key');
  const contentLength = request.headers['content-length'];
  const refusal = verifyLocalUpload(key, request.url.searchParams, String(request.headers['content-type'] ?? ''), contentLength);
  if (refusal) return s3Error(response, refusal.status, refusal.code, refusal.message);
  if (request.body.length !== Number(contentLength)) return s3Error(response, 400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.');
  await new LocalUploadStore(localUploadDir(), localBlobDir()).put(key, request.body);
  response.writeHead(200);
  response.end();
  return true;
};

/**
 * Routes that exist only locally, standing in for AWS services (S3 serving image bytes and receiving
 * presigned uploads). Features add theirs here.
 */
export const localRoutes: LocalRoute[] = [serveLocalBlobs, acceptLocalUploads, serveWidgetDemo];
