import { BLOB_KEY_PATTERN, contentTypeOfKey } from '../../shared/blob-store/blob-store.js';
import { LOCAL_BLOB_ROUTE_PREFIX, LocalBlobStore, localBlobDir } from '../../shared/blob-store/local-blob-store.js';
import type { LocalRoute } from './server.js';
import { serveWidgetDemo } from './widget-demo.js';

/**
 * Serves what the local blob store holds, the way CloudFront serves the S3 bucket when deployed:
 * GET/HEAD `/_local/blobs/<key>` with the content type of the key, no credential.
 */
const serveLocalBlobs: LocalRoute = async (request, response) => {
  const path = request.url.pathname;
  if (!path.startsWith(LOCAL_BLOB_ROUTE_PREFIX) || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  const key = decodeURIComponent(path.slice(LOCAL_BLOB_ROUTE_PREFIX.length));
  const bytes = BLOB_KEY_PATTERN.test(key) ? await new LocalBlobStore(localBlobDir()).get(key) : undefined;
  if (!bytes) {
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

/**
 * Routes that exist only locally, standing in for AWS services (e.g. S3 serving image bytes).
 * Features add theirs here.
 */
export const localRoutes: LocalRoute[] = [serveLocalBlobs, serveWidgetDemo];
