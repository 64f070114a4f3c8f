import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { GATEWAY_ERRORS, gatewayErrorBody, type GatewayErrorType } from '../shared/http/gateway-responses.js';

/** Errors a client may retry after a pause; the contract promises `Retry-After` on them. */
const RETRYABLE: readonly GatewayErrorType[] = ['THROTTLED', 'AUTHORIZER_FAILURE'];

/**
 * Gateway responses from the same definitions the local server answers with, so a client sees the
 * same status and body locally and deployed. MISSING_AUTHENTICATION_TOKEN is API Gateway's name for
 * "no such resource": it answers 404, not the misleading default 403.
 */
export function addGatewayErrors(api: RestApi): void {
  for (const [type, definition] of Object.entries(GATEWAY_ERRORS) as [GatewayErrorType, (typeof GATEWAY_ERRORS)[GatewayErrorType]][]) {
    api.addGatewayResponse(`GatewayError${type}`, {
      type: ResponseType.of(type),
      statusCode: String(definition.statusCode),
      templates: { 'application/json': gatewayErrorBody(definition) },
      responseHeaders: {
        'X-Request-Id': 'context.requestId',
        ...(RETRYABLE.includes(type) ? { 'Retry-After': "'1'" } : {}),
      },
    });
  }
}
