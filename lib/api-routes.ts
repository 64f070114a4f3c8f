import {
  AuthorizationType, LambdaIntegration, MockIntegration, PassthroughBehavior, type IAuthorizer, type IResource, type Method, type RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Validations } from 'aws-cdk-lib';
import { METHOD_NOT_ALLOWED, corsPreflightHeaders, errorFormatOf, methodNotAllowedBody, methodNotAllowedHeaders } from '../shared/http/gateway-responses.js';
import type { ErrorFormat, RouteDefinition, RouteGroup } from '../shared/http/route.js';

export interface RouteMethodsProps {
  readonly api: RestApi;
  readonly routes: readonly RouteDefinition[];
  readonly functions: ReadonlyMap<RouteGroup, IFunction>;
  readonly authorizer: IAuthorizer;
}

/** A literal for an API Gateway parameter mapping. */
const literal = (value: string) => `'${value}'`;

/**
 * Known path, wrong method: a MOCK `ANY` method (explicit methods win over `ANY`) answering exactly
 * what the local server answers. No authorizer: it reaches no backend and reveals only the Allow list.
 */
function addMethodNotAllowed(resource: IResource, allowed: readonly string[], cors: boolean, format: ErrorFormat): Method {
  const responseParameters: Record<string, string> = { 'method.response.header.X-Request-Id': 'context.requestId' };
  // Browsers on other sites must be able to read the 405 of a public cross-origin path too.
  for (const [name, value] of Object.entries(methodNotAllowedHeaders(allowed, cors))) responseParameters[`method.response.header.${name}`] = literal(value);
  const method = resource.addMethod('ANY', new MockIntegration({
    requestTemplates: { 'application/json': '{"statusCode": 405}' },
    passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
    integrationResponses: [{
      statusCode: String(METHOD_NOT_ALLOWED.statusCode),
      // In the path's error format: the partner listing's errors are flat.
      responseTemplates: { 'application/json': methodNotAllowedBody(format) },
      responseParameters,
    }],
  }), {
    authorizationType: AuthorizationType.NONE,
    methodResponses: [{
      statusCode: String(METHOD_NOT_ALLOWED.statusCode),
      responseParameters: Object.fromEntries(Object.keys(responseParameters).map((name) => [name, true])),
    }],
  });
  acknowledgePublic(method, 'Answers 405 method_not_allowed from a MOCK integration; it reaches no backend and needs no credential.');
  return method;
}

/** CORS preflight for public cross-origin routes, with the headers the local server sends. */
function addPreflight(resource: IResource, methods: readonly string[]): Method {
  const headers = corsPreflightHeaders(methods);
  const responseParameters: Record<string, string> = { 'method.response.header.X-Request-Id': 'context.requestId' };
  for (const [name, value] of Object.entries(headers)) responseParameters[`method.response.header.${name}`] = literal(value);
  const method = resource.addMethod('OPTIONS', new MockIntegration({
    requestTemplates: { 'application/json': '{"statusCode": 204}' },
    passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
    integrationResponses: [{ statusCode: '204', responseParameters }],
  }), {
    authorizationType: AuthorizationType.NONE,
    methodResponses: [{ statusCode: '204', responseParameters: Object.fromEntries(Object.keys(responseParameters).map((name) => [name, true])) }],
  });
  acknowledgePublic(method, 'CORS preflight of a public route (spec: partner widgets on any site); a MOCK integration with no backend.');
  return method;
}

function acknowledgePublic(method: Method, reason: string): void {
  Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason });
  Validations.of(method).acknowledge({ id: 'AwsSolutions-COG4', reason });
}

/**
 * One API method per route of the route table: Lambda proxy to the group's function, the REQUEST
 * authorizer on `key` routes and none on `public` ones; plus 405 and CORS preflight per path.
 */
export function addRouteMethods(props: RouteMethodsProps): Map<string, Method> {
  const methods = new Map<string, Method>();
  const integrations = new Map<RouteGroup, LambdaIntegration>();
  const byPath = new Map<string, RouteDefinition[]>();
  for (const route of props.routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);

  for (const [path, routes] of byPath) {
    const resource = props.api.root.resourceForPath(path);
    for (const route of routes) {
      const fn = props.functions.get(route.group);
      if (!fn) throw new Error(`No function for group ${route.group} (route ${route.operation})`);
      let integration = integrations.get(route.group);
      if (!integration) {
        // One invoke permission per function, scoped to this API, instead of one per method: a
        // stack holds at most 500 resources and every route would otherwise cost two.
        integration = new LambdaIntegration(fn, { proxy: true, scopePermissionToMethod: false });
        integrations.set(route.group, integration);
      }
      const method = resource.addMethod(route.method, integration, route.auth === 'key'
        // apiKeyRequired: the workspace's usage plan (found through the authorizer's usageIdentifierKey) throttles it.
        ? { authorizer: props.authorizer, authorizationType: AuthorizationType.CUSTOM, apiKeyRequired: true, operationName: route.operation }
        : { authorizationType: AuthorizationType.NONE, operationName: route.operation });
      if (route.auth === 'public') acknowledgePublic(method, `Public by the API contract (${route.method} ${route.path}: ${route.summary}); no credential exists for it.`);
      methods.set(`${route.method} ${route.path}`, method);
    }
    const cors = routes.some((route) => route.cors);
    addMethodNotAllowed(resource, routes.map((route) => route.method), cors, errorFormatOf(routes));
    if (cors) addPreflight(resource, routes.map((route) => route.method));
  }
  return methods;
}
