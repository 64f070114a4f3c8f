import { DomainError, ServiceUnavailableError } from '../../shared/errors.js';
import { toDomainError } from '../../shared/http/error-mapping.js';
import { HttpResult, implement } from '../../shared/http/operation.js';
import { partnerRoutes } from '../../shared/http/routes/partner.js';
import { logger } from '../../shared/logger.js';
import { PartnerListingFailedError } from '../../shared/partners/partner-errors.js';
import { listPartnerEvents } from '../../shared/partners/partner-listing-service.js';

/** Partner widgets poll this listing: a short shared cache absorbs bursts without hiding changes for long. */
export const PARTNER_CACHE_CONTROL = 'public, max-age=30';

export const listPartnerEventsOperation = implement(partnerRoutes.listPartnerEvents, async ({ event, baseUrl }) => {
  try {
    const body = await listPartnerEvents(event.queryStringParameters ?? {}, { baseUrl });
    return new HttpResult(body.status, body, body.status === 200 ? { 'Cache-Control': PARTNER_CACHE_CONTROL } : {});
  } catch (error) {
    if (error instanceof DomainError && 'flatCode' in error) throw error;
    // The spec answers any database or unexpected failure with a generic 500 (never a 503); a database
    // that is throttling or unreachable still tells the widget when to retry.
    logger.error('Partner listing failed', { error: error as Error });
    throw new PartnerListingFailedError(toDomainError(error) instanceof ServiceUnavailableError);
  }
});
