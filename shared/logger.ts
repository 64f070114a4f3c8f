import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The one structured JSON logger. Never log request headers or bodies wholesale: they carry API keys
 * and personal data.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'boxoffice' });
