import type { LocalRoute } from './server.js';

/**
 * Routes that exist only locally, standing in for AWS services (e.g. S3 serving image bytes).
 * Features add theirs here.
 */
export const localRoutes: LocalRoute[] = [];
