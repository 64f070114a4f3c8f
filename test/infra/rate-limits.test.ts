import { beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../shared/http/routes.js';
import { apiMethods, synthesize, type SynthMethod, type SynthesizedApp } from './support/synth.js';

let app: SynthesizedApp;
let methods: SynthMethod[];

beforeAll(() => {
  app = synthesize();
  methods = apiMethods(app.api);
});

function methodOf(path: string, httpMethod: string): SynthMethod | undefined {
  return methods.find((method) => method.path === path && method.httpMethod === httpMethod);
}

describe('usage plans per workspace', () => {
  it('takes API keys from the authorizer (usageIdentifierKey), never from a client header', () => {
    app.api.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
  });

  it.each(routeTable.filter((route) => route.auth === 'key').map((route) => [route.method, route.path] as const))(
    '%s %s requires the workspace\'s usage plan key',
    (httpMethod, path) => {
      expect(methodOf(path, httpMethod)?.properties.ApiKeyRequired).toBe(true);
    },
  );

  it('requires no usage plan key on public routes, preflights and 405 answers (they have no workspace)', () => {
    // Prepare
    const keyRoutes = new Set(routeTable.filter((route) => route.auth === 'key').map((route) => `${route.method} ${route.path}`));

    // Act
    const others = methods.filter((method) => !keyRoutes.has(`${method.httpMethod} ${method.path}`));

    // Assess
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((method) => method.properties.ApiKeyRequired === true).map((method) => `${method.httpMethod} ${method.path}`)).toEqual([]);
  });

  it('outputs the API id and stage the admin CLI needs to manage the plans', () => {
    app.api.hasOutput('RestApiId', {});
    app.api.hasOutput('StageName', {});
  });

  it('keeps a stage ceiling for all clients together, above a workspace\'s default limits', () => {
    app.api.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [{ ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000, HttpMethod: '*', ResourcePath: '/*', LoggingLevel: 'ERROR', DataTraceEnabled: false, MetricsEnabled: true }],
    });
  });
});
