import { DomainError, InvalidQueryError, NotFoundError, type ErrorDetail } from '../errors.js';

/**
 * Errors of the public partner listing. They reuse the envelope codes (and so the statuses) of the
 * generic errors and carry `flatCode`, the SCREAMING_SNAKE `error` string of the spec's flat body.
 */

/** 400 `REFERRAL_CODE_REQUIRED`: the query has no (or an empty) `referral_code`. */
export class ReferralCodeRequiredError extends DomainError {
  readonly code = 'invalid_query';
  readonly flatCode = 'REFERRAL_CODE_REQUIRED';
  constructor() {
    super('A referral code is required. Pass it as the referral_code query parameter.');
  }
}

/** 404 `PARTNER_NOT_FOUND`: no partner has this referral code; the message names the code. */
export class PartnerNotFoundError extends NotFoundError {
  readonly flatCode = 'PARTNER_NOT_FOUND';
  constructor(readonly referralCode: string) {
    super('Partner');
    this.message = `No partner found for referral code ${referralCode}.`;
  }
}

/** 400 `INVALID_QUERY`: a malformed `page`, `limit`, `sort`, `direction` or `filter`. */
export class PartnerQueryError extends InvalidQueryError {
  readonly flatCode = 'INVALID_QUERY';
  constructor(detail: ErrorDetail) {
    super([detail], `Invalid query parameter ${detail.path}: ${detail.message}.`);
  }
}

/**
 * 500 `INTERNAL_SERVER_ERROR`: the spec answers every database or unexpected failure of the listing
 * with this generic body (no 503), and never echoes the cause (logged instead). `retryable` (a
 * database that is throttling or unreachable) adds `Retry-After`, as a 503 would have.
 */
export class PartnerListingFailedError extends DomainError {
  readonly code = 'internal_error';
  readonly flatCode = 'INTERNAL_SERVER_ERROR';
  constructor(readonly retryable = false) {
    super('An unexpected error occurred while loading events. Please try again later.');
  }
}
