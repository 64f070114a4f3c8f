import { beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { BINARY_MEDIA_TYPES, GATEWAY_ERRORS, METHOD_NOT_ALLOWED, corsPreflightHeaders, gatewayErrorBody, type GatewayErrorDefinition, type GatewayErrorType } from '../../shared/http/gateway-responses.js';
import { routeTable } from '../../shared/http/routes.js';
import { SECURITY_HEADERS } from '../../shared/http/security-headers.js';
import { apiMethods, refTarget, resourcesOf, synthesize, type SynthMethod, type SynthesizedApp } from './support/synth.js';

let app: SynthesizedApp;
let methods: SynthMethod[];
let authorizerId: string;

beforeAll(() => {
  app = synthesize();
  methods = apiMethods(app.api);
  authorizerId = Object.keys(resourcesOf(app.api, 'AWS::ApiGateway::Authorizer'))[0] as string;
});

function methodOf(path: string, httpMethod: string): SynthMethod | undefined {
  return methods.find((method) => method.path === path && method.httpMethod === httpMethod);
}

describe('API methods from the route table', () => {
  it.each(routeTable.filter((route) => route.auth === 'key').map((route) => [route.method, route.path] as const))(
    '%s %s is a Lambda proxy method behind the key authorizer',
    (httpMethod, path) => {
      // Prepare
      const method = methodOf(path, httpMethod);

      // Assess
      expect(method, `${httpMethod} ${path}`).toBeDefined();
      expect(method?.properties.AuthorizationType).toBe('CUSTOM');
      expect(refTarget(method?.properties.AuthorizerId)).toBe(authorizerId);
      expect((method?.properties.Integration as { Type: string }).Type).toBe('AWS_PROXY');
    },
  );

  it.each(routeTable.filter((route) => route.auth === 'public').map((route) => [route.method, route.path] as const))(
    '%s %s is public: a Lambda proxy method with no authorizer',
    (httpMethod, path) => {
      // Prepare
      const method = methodOf(path, httpMethod);

      // Assess
      expect(method, `${httpMethod} ${path}`).toBeDefined();
      expect(method?.properties.AuthorizationType).toBe('NONE');
      expect(method?.properties.AuthorizerId).toBeUndefined();
      expect((method?.properties.Integration as { Type: string }).Type).toBe('AWS_PROXY');
    },
  );

  it('keeps /health, /docs and /openapi.json public', () => {
    // Act
    const publicPaths = methods.filter((method) => method.properties.AuthorizationType === 'NONE' && method.httpMethod === 'GET').map((method) => method.path);

    // Assess
    expect(publicPaths).toEqual(expect.arrayContaining(['/health', '/docs', '/openapi.json']));
  });

  it('has no proxy method that is not in the route table', () => {
    // Prepare
    const expected = new Set(routeTable.map((route) => `${route.method} ${route.path}`));

    // Act
    const proxied = methods.filter((method) => (method.properties.Integration as { Type: string }).Type === 'AWS_PROXY');

    // Assess
    expect(proxied.map((method) => `${method.httpMethod} ${method.path}`).sort()).toEqual([...expected].sort());
  });
});

describe('known path, wrong method', () => {
  const paths = [...new Set(routeTable.map((route) => route.path))];

  it.each(paths)('%s answers other methods with the local server\'s 405 body and Allow header', (path) => {
    // Prepare
    const allowed = routeTable.filter((route) => route.path === path).map((route) => route.method);

    // Act
    const any = methodOf(path, 'ANY');

    // Assess
    expect(any?.properties.AuthorizationType).toBe('NONE');
    const integration = any?.properties.Integration as { Type: string; IntegrationResponses: { StatusCode: string; ResponseTemplates: Record<string, string>; ResponseParameters: Record<string, string> }[] };
    expect(integration.Type).toBe('MOCK');
    const response = integration.IntegrationResponses[0];
    expect(response?.StatusCode).toBe('405');
    // The partner listing's errors are flat (spec "Partner events errors"), every other path's the envelope.
    const flat = routeTable.some((route) => route.path === path && route.errorFormat === 'flat');
    expect(JSON.parse(response?.ResponseTemplates['application/json'] ?? '')).toEqual(flat
      ? { status: 405, error: 'METHOD_NOT_ALLOWED', message: METHOD_NOT_ALLOWED.message }
      : JSON.parse(gatewayErrorBody(METHOD_NOT_ALLOWED)));
    expect(response?.ResponseParameters['method.response.header.Allow']).toBe(`'${allowed.join(', ')}'`);
    const cors = routeTable.some((route) => route.path === path && route.cors);
    expect(response?.ResponseParameters['method.response.header.Access-Control-Allow-Origin']).toBe(cors ? "'*'" : undefined);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response?.ResponseParameters[`method.response.header.${name}`]).toBe(`'${value}'`);
  });
});

describe('CORS preflight', () => {
  it.each(routeTable.filter((route) => route.cors).map((route) => route.path))('OPTIONS %s answers 204 with the shared CORS headers', (path) => {
    // Act
    const options = methodOf(path, 'OPTIONS');

    // Assess
    const integration = options?.properties.Integration as { Type: string; IntegrationResponses: { StatusCode: string; ResponseParameters: Record<string, string> }[] };
    expect(integration.Type).toBe('MOCK');
    expect(integration.IntegrationResponses[0]?.StatusCode).toBe('204');
    const pathMethods = routeTable.filter((route) => route.path === path).map((route) => route.method);
    for (const [name, value] of Object.entries(corsPreflightHeaders(pathMethods))) {
      expect(integration.IntegrationResponses[0]?.ResponseParameters[`method.response.header.${name}`]).toBe(`'${value}'`);
    }
    expect(integration.IntegrationResponses[0]?.ResponseParameters['method.response.header.X-Content-Type-Options']).toBe("'nosniff'");
  });

  it('is absent on paths without a CORS route', () => {
    // Prepare
    const corsPaths = new Set(routeTable.filter((route) => route.cors).map((route) => route.path));

    // Act
    const preflights = methods.filter((method) => method.httpMethod === 'OPTIONS' && !corsPaths.has(method.path));

    // Assess
    expect(preflights).toEqual([]);
  });
});

describe('REST API', () => {
  it('uses the key authorizer on the Authorization header with a 300 s cache', () => {
    // Assess
    app.api.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 300,
    });
  });

  it('logs access, throttles the stage and declares the binary media types', () => {
    // Assess
    app.api.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'test',
      AccessLogSetting: { DestinationArn: Match.anyValue() },
      MethodSettings: Match.arrayWith([Match.objectLike({ ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000, LoggingLevel: 'ERROR', DataTraceEnabled: false })]),
    });
    app.api.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: [...BINARY_MEDIA_TYPES] });
  });
});

function gatewayResponse(type: string): Record<string, unknown> | undefined {
  return Object.values(resourcesOf(app.api, 'AWS::ApiGateway::GatewayResponse')).find((resource) => resource.Properties.ResponseType === type)?.Properties;
}

describe('gateway responses', () => {
  it.each(Object.keys(GATEWAY_ERRORS) as GatewayErrorType[])('%s answers the local server\'s status and body with X-Request-Id, CORS and the security headers', (type) => {
    // Prepare
    const definition: GatewayErrorDefinition = GATEWAY_ERRORS[type];

    // Act
    const response = gatewayResponse(type);

    // Assess
    expect(response?.StatusCode).toBe(definition.statusCode === undefined ? undefined : String(definition.statusCode));
    expect((response?.ResponseTemplates as Record<string, string>)['application/json']).toBe(gatewayErrorBody(definition));
    const headers = response?.ResponseParameters as Record<string, string>;
    expect(headers['gatewayresponse.header.X-Request-Id']).toBe('context.requestId');
    expect(headers['gatewayresponse.header.Access-Control-Allow-Origin']).toBe("'*'");
    expect(headers['gatewayresponse.header.Access-Control-Expose-Headers']).toBe("'X-Request-Id, Retry-After, Idempotent-Replayed'");
    expect(headers['gatewayresponse.header.X-Content-Type-Options']).toBe("'nosniff'");
    expect(headers['gatewayresponse.header.Strict-Transport-Security']).toBe(`'${SECURITY_HEADERS['Strict-Transport-Security']}'`);
  });

  it.each(['DEFAULT_4XX', 'DEFAULT_5XX'])('lets %s keep the status of the error it stands in for (a 504 stays 504)', (type) => {
    // Act
    const response = gatewayResponse(type);

    // Assess
    expect(response).toBeDefined();
    expect(response).not.toHaveProperty('StatusCode');
  });

  it.each([['QUOTA_EXCEEDED', '429', 'rate_limited'], ['UNSUPPORTED_MEDIA_TYPE', '415', 'unsupported_media_type'], ['REQUEST_TOO_LARGE', '413', 'payload_too_large']])(
    'answers %s with %s %s',
    (type, status, code) => {
      // Act
      const response = gatewayResponse(type);

      // Assess
      expect(response?.StatusCode).toBe(status);
      expect(JSON.parse((response?.ResponseTemplates as Record<string, string>)['application/json'] as string)).toMatchObject({ error: { code } });
    },
  );

  it('turns an unknown path (MISSING_AUTHENTICATION_TOKEN) into 404 not_found, not 403', () => {
    // Act
    const response = gatewayResponse('MISSING_AUTHENTICATION_TOKEN');

    // Assess
    expect(response?.StatusCode).toBe('404');
    expect(JSON.parse((response?.ResponseTemplates as Record<string, string>)['application/json'] as string)).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it.each(['THROTTLED', 'QUOTA_EXCEEDED', 'AUTHORIZER_FAILURE'])('tells clients of %s when to retry', (type) => {
    // Act
    const response = gatewayResponse(type);

    // Assess
    expect((response?.ResponseParameters as Record<string, string>)['gatewayresponse.header.Retry-After']).toBe("'1'");
  });
});
