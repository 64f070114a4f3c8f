import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { GATEWAY_ERRORS, gatewayErrorBody, gatewayErrorHeaders, type GatewayErrorDefinition, type GatewayErrorType } from '../shared/http/gateway-responses.js';

/** A literal for an API Gateway parameter mapping. */
const literal = (value: string) => `'${value}'`;

/**
 * Gateway responses from the same definitions the local server answers with, so a client sees the
 * same status and body locally and deployed. MISSING_AUTHENTICATION_TOKEN is API Gateway's name for
 * "no such resource": it answers 404, not the misleading default 403. DEFAULT_4XX/DEFAULT_5XX set no
 * status: they stand in for every unconfigured type, which keeps its own (504, 502, ...). Every one
 * carries the CORS headers, so browsers on partner sites can read errors of the public routes.
 */
export function addGatewayErrors(api: RestApi): void {
  for (const [type, definition] of Object.entries(GATEWAY_ERRORS) as [GatewayErrorType, GatewayErrorDefinition][]) {
    api.addGatewayResponse(`GatewayError${type}`, {
      type: ResponseType.of(type),
      ...(definition.statusCode === undefined ? {} : { statusCode: String(definition.statusCode) }),
      templates: { 'application/json': gatewayErrorBody(definition) },
      responseHeaders: {
        'X-Request-Id': 'context.requestId',
        ...Object.fromEntries(Object.entries(gatewayErrorHeaders(definition)).map(([name, value]) => [name, literal(value)])),
      },
    });
  }
}
