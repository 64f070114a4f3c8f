import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { LambdaService } from './lambda-service.js';
import { TemplateWaf } from './waf.js';
import { refTarget, resolveValue, resourcesOfType, type CfnTemplate, type ResolveContext } from './template.js';

/** API Gateway's REST payload limit (not configurable). */
export const API_GATEWAY_PAYLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

/** Default status of each gateway response type (AWS "Gateway response types for API Gateway"). */
export const RESPONSE_TYPE_STATUS: Readonly<Record<string, number>> = {
  ACCESS_DENIED: 403, API_CONFIGURATION_ERROR: 500, AUTHORIZER_CONFIGURATION_ERROR: 500, AUTHORIZER_FAILURE: 500,
  BAD_REQUEST_PARAMETERS: 400, BAD_REQUEST_BODY: 400, EXPIRED_TOKEN: 403, INTEGRATION_FAILURE: 504,
  INTEGRATION_TIMEOUT: 504, INVALID_API_KEY: 403, INVALID_SIGNATURE: 403, MISSING_AUTHENTICATION_TOKEN: 403,
  QUOTA_EXCEEDED: 429, REQUEST_TOO_LARGE: 413, RESOURCE_NOT_FOUND: 404, THROTTLED: 429, UNAUTHORIZED: 401,
  UNSUPPORTED_MEDIA_TYPE: 415, WAF_FILTERED: 403,
};
const DEFAULT_MESSAGES: Record<string, string> = { UNAUTHORIZED: 'Unauthorized', MISSING_AUTHENTICATION_TOKEN: 'Missing Authentication Token', THROTTLED: 'Too Many Requests' };

interface ApiMethod {
  httpMethod: string;
  authorizationType: string;
  authorizerId?: string;
  apiKeyRequired: boolean;
  integration: Record<string, unknown>;
}

interface ApiResource {
  pathPart: string;
  path: string;
  children: ApiResource[];
  methods: Map<string, ApiMethod>;
}

interface Authorizer {
  type: string;
  functionId: string;
  identitySources: string[];
  ttlSeconds: number;
}

interface GatewayResponseConfig {
  statusCode?: string;
  templates: Record<string, string>;
  parameters: Record<string, string>;
}

interface AuthorizerResult {
  principalId: string;
  policyDocument: { Statement: { Effect: string; Action: string | string[]; Resource: string | string[] }[] };
  context?: Record<string, unknown>;
  usageIdentifierKey?: string;
}

export interface GatewayRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
  body: Buffer;
  sourceIp: string;
  requestId: string;
}

export interface GatewayAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** The Lambda function a Lambda ARN expression (integration or authorizer URI) points at. */
function functionOfUri(uri: unknown, template: CfnTemplate): string {
  const found = JSON.stringify(uri).match(/"Fn::GetAtt":\["([^"]+)","Arn"\]/);
  const id = found?.[1];
  if (!id || template.Resources[id]?.Type !== 'AWS::Lambda::Function') throw new Error(`Cannot find the function of ${JSON.stringify(uri)}`);
  return id;
}

function matchesWildcard(pattern: string, value: string): boolean {
  const regex = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return regex.test(value);
}

/** IAM evaluation of an authorizer policy for one method ARN: an explicit Deny wins, then any Allow. */
function policyAllows(result: AuthorizerResult, methodArn: string): boolean {
  const statements = result.policyDocument?.Statement ?? [];
  const applies = (statement: AuthorizerResult['policyDocument']['Statement'][number]) => {
    const actions = [statement.Action].flat();
    const resources = [statement.Resource].flat();
    return actions.some((action) => matchesWildcard(action, 'execute-api:Invoke')) && resources.some((resource) => matchesWildcard(resource, methodArn));
  };
  if (statements.some((statement) => statement.Effect === 'Deny' && applies(statement))) return false;
  return statements.some((statement) => statement.Effect === 'Allow' && applies(statement));
}

function requestTime(now: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(now.getUTCDate())}/${months[now.getUTCMonth()]}/${now.getUTCFullYear()}:${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())} +0000`;
}

/**
 * API Gateway (REST, v1) behind its AWS WAF web ACL, configured by nothing but a synthesized template: resources and methods,
 * the REQUEST authorizer (identity source, result cache TTL, policy evaluation), Lambda proxy and MOCK
 * integrations, gateway responses, binary media types, compression, stage variables and throttling,
 * the 10 MB payload limit, and Lambda's 6 MB invocation limit behind it.
 */
export class TemplateGateway {
  readonly stageName: string;
  private readonly root: ApiResource;
  private readonly authorizers = new Map<string, Authorizer>();
  private readonly gatewayResponses = new Map<string, GatewayResponseConfig>();
  private readonly binaryMediaTypes: string[];
  private readonly minimumCompressionSize: number | undefined;
  private readonly stageVariables: Record<string, string> | null;
  private readonly throttle: { rate: number; burst: number } | undefined;
  private tokens = 0;
  private tokensAt = Date.now();
  private readonly authorizerCache = new Map<string, { result: AuthorizerResult; expires: number }>();
  private readonly apiId: string;
  private readonly waf: TemplateWaf;
  private server: Server | undefined;
  /** Requests the authorizer function actually saw (the cache is visible through it). */
  authorizerInvocations = 0;

  constructor(
    private readonly template: CfnTemplate,
    private readonly resolver: ResolveContext,
    private readonly lambda: LambdaService,
    private readonly region = 'us-east-1',
    private readonly accountId = '123456789012',
  ) {
    const [apiEntry, ...more] = resourcesOfType(template, 'AWS::ApiGateway::RestApi');
    if (!apiEntry || more.length > 0) throw new Error('Expected exactly one REST API in the template');
    const [apiLogicalId, api] = apiEntry;
    this.apiId = resolver.ref(apiLogicalId);
    const pick = (props: Record<string, unknown> | undefined, names: string[]) => resolveValue(Object.fromEntries(names.map((name) => [name, props?.[name]])), resolver) as Record<string, unknown>;
    const apiProps = pick(api.Properties, ['BinaryMediaTypes', 'MinimumCompressionSize']);
    this.binaryMediaTypes = ((apiProps.BinaryMediaTypes as string[] | undefined) ?? []).map((type) => type.replace('~1', '/'));
    this.minimumCompressionSize = apiProps.MinimumCompressionSize as number | undefined;
    // Methods requiring an API key are emulated with the key source the stack uses (the authorizer's usageIdentifierKey).
    const keySource = api.Properties?.ApiKeySourceType ?? 'HEADER';
    const requiresKey = resourcesOfType(template, 'AWS::ApiGateway::Method').some(([, method]) => method.Properties?.ApiKeyRequired === true);
    if (requiresKey && keySource !== 'AUTHORIZER') throw new Error(`API key source ${String(keySource)} is not emulated`);

    const [[stageLogicalId, stage] = []] = resourcesOfType(template, 'AWS::ApiGateway::Stage');
    if (!stage || !stageLogicalId) throw new Error('Expected a stage');
    this.waf = new TemplateWaf(template, stageLogicalId);
    const stageProps = pick(stage.Properties, ['StageName', 'Variables', 'MethodSettings']);
    this.stageName = stageProps.StageName as string;
    this.stageVariables = (stageProps.Variables as Record<string, string> | undefined) ?? null;
    const settings = ((stageProps.MethodSettings as Record<string, unknown>[] | undefined) ?? []).find((setting) => setting.ResourcePath === '/*' && setting.HttpMethod === '*');
    if (settings?.ThrottlingRateLimit !== undefined) {
      this.throttle = { rate: Number(settings.ThrottlingRateLimit), burst: Number(settings.ThrottlingBurstLimit ?? settings.ThrottlingRateLimit) };
      this.tokens = this.throttle.burst;
    }

    this.root = { pathPart: '', path: '/', children: [], methods: new Map() };
    const byId = new Map<string, ApiResource>([[`${apiLogicalId}.RootResourceId`, this.root]]);
    const pending = resourcesOfType(template, 'AWS::ApiGateway::Resource');
    const parentKey = (parent: unknown) => {
      const getAtt = (parent as Record<string, unknown>)['Fn::GetAtt'] as [string, string] | undefined;
      return getAtt ? `${getAtt[0]}.${getAtt[1]}` : (refTarget(parent) as string);
    };
    while (pending.length > 0) {
      const index = pending.findIndex(([, resource]) => byId.has(parentKey(resource.Properties?.ParentId)));
      if (index < 0) throw new Error('API resources with unknown parents');
      const [id, resource] = pending.splice(index, 1)[0] as [string, { Properties?: Record<string, unknown> }];
      const parent = byId.get(parentKey(resource.Properties?.ParentId)) as ApiResource;
      const pathPart = String(resource.Properties?.PathPart);
      const node: ApiResource = { pathPart, path: `${parent.path === '/' ? '' : parent.path}/${pathPart}`, children: [], methods: new Map() };
      parent.children.push(node);
      byId.set(id, node);
    }
    for (const [, method] of resourcesOfType(template, 'AWS::ApiGateway::Method')) {
      const props = method.Properties ?? {};
      const resourceRef = props.ResourceId as Record<string, unknown>;
      const resource = byId.get(resourceRef['Fn::GetAtt'] ? parentKey(resourceRef) : (refTarget(resourceRef) as string));
      if (!resource) throw new Error('Method on an unknown resource');
      resource.methods.set(String(props.HttpMethod), {
        httpMethod: String(props.HttpMethod),
        authorizationType: String(props.AuthorizationType ?? 'NONE'),
        ...(props.AuthorizerId ? { authorizerId: refTarget(props.AuthorizerId) as string } : {}),
        apiKeyRequired: props.ApiKeyRequired === true,
        integration: props.Integration as Record<string, unknown>,
      });
    }
    for (const [id, authorizer] of resourcesOfType(template, 'AWS::ApiGateway::Authorizer')) {
      const props = authorizer.Properties ?? {};
      this.authorizers.set(id, {
        type: String(props.Type),
        functionId: functionOfUri(props.AuthorizerUri, template),
        identitySources: String(props.IdentitySource ?? '').split(',').map((source) => source.trim()).filter(Boolean),
        ttlSeconds: Number(props.AuthorizerResultTtlInSeconds ?? 300),
      });
    }
    for (const [, response] of resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse')) {
      const props = response.Properties ?? {};
      this.gatewayResponses.set(String(props.ResponseType), {
        ...(props.StatusCode === undefined ? {} : { statusCode: String(props.StatusCode) }),
        templates: (props.ResponseTemplates as Record<string, string> | undefined) ?? {},
        parameters: (props.ResponseParameters as Record<string, string> | undefined) ?? {},
      });
    }
  }

  /** Serves the stage at `http://127.0.0.1:<port>/<stage>`, as `https://<api>.execute-api.<region>.amazonaws.com/<stage>`. */
  async listen(): Promise<string> {
    this.server = createServer((request, response) => {
      this.serve(request, response).catch((error: unknown) => {
        console.error('Gateway stand-in failure', error);
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', () => resolve()));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/${this.stageName}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size <= API_GATEWAY_PAYLOAD_LIMIT_BYTES) chunks.push(chunk as Buffer);
    }
    const url = new URL(request.url ?? '/', 'http://gateway');
    const headers: Record<string, string> = {};
    const multiValueHeaders: Record<string, string[]> = {};
    for (let i = 0; i < request.rawHeaders.length; i += 2) {
      const name = request.rawHeaders[i] as string;
      const value = request.rawHeaders[i + 1] as string;
      headers[name] = value;
      (multiValueHeaders[name] ??= []).push(value);
    }
    const incoming: GatewayRequest = {
      method: (request.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      headers,
      multiValueHeaders,
      body: Buffer.concat(chunks),
      sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
      requestId: randomUUID(),
    };
    const blocked = this.waf.evaluate({ method: incoming.method, uriPath: incoming.path, headers, sourceIp: incoming.sourceIp });
    const answer = blocked ?? (size > API_GATEWAY_PAYLOAD_LIMIT_BYTES ? this.gatewayError('REQUEST_TOO_LARGE', incoming) : await this.handle(incoming));
    const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    let body = answer.body;
    const responseHeaders = { ...answer.headers };
    if (acceptsGzip && this.minimumCompressionSize !== undefined && body.length >= this.minimumCompressionSize) {
      body = gzipSync(body);
      responseHeaders['Content-Encoding'] = 'gzip';
    }
    response.writeHead(answer.status, { ...responseHeaders, 'x-amzn-RequestId': incoming.requestId, 'Content-Length': String(body.length) });
    response.end(body);
  }

  private takeToken(): boolean {
    if (!this.throttle) return true;
    const now = Date.now();
    this.tokens = Math.min(this.throttle.burst, this.tokens + ((now - this.tokensAt) / 1000) * this.throttle.rate);
    this.tokensAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** What API Gateway answers for one request (exposed for tests of the stand-in itself). */
  async handle(request: GatewayRequest): Promise<GatewayAnswer> {
    const prefix = `/${this.stageName}`;
    if (request.path !== prefix && !request.path.startsWith(`${prefix}/`)) {
      return { status: 403, headers: { 'Content-Type': 'application/json' }, body: Buffer.from('{"message":"Forbidden"}') };
    }
    if (!this.takeToken()) return this.gatewayError('THROTTLED', request);
    const path = request.path.slice(prefix.length) || '/';
    const match = this.matchResource(path);
    if (!match) return this.gatewayError('MISSING_AUTHENTICATION_TOKEN', request);
    const method = match.resource.methods.get(request.method) ?? match.resource.methods.get('ANY');
    if (!method) return this.gatewayError('MISSING_AUTHENTICATION_TOKEN', request);

    let authorizerContext: Record<string, unknown> | null = null;
    if (method.authorizationType === 'CUSTOM') {
      const outcome = await this.authorize(method, request, match.resource.path, path);
      if (typeof outcome === 'string') return this.gatewayError(outcome, request);
      authorizerContext = outcome;
    } else if (method.authorizationType !== 'NONE') {
      throw new Error(`Authorization type ${method.authorizationType} is not emulated`);
    }

    const integrationType = String(method.integration.Type);
    if (integrationType === 'MOCK') return this.mock(method, request);
    if (integrationType !== 'AWS_PROXY') throw new Error(`Integration type ${integrationType} is not emulated`);
    const functionId = functionOfUri(method.integration.Uri, this.template);
    const event = this.proxyEvent(request, match.resource.path, path, match.params, authorizerContext);
    const outcome = await this.lambda.invoke(functionId, event, request.requestId);
    // API Gateway logs "Execution failed due to configuration error: Lambda invocation failed with status: 413" and answers 500.
    if (outcome.kind === 'refused') return this.gatewayError('API_CONFIGURATION_ERROR', request);
    if (outcome.kind === 'function-error') return this.gatewayError('DEFAULT_5XX', request, 502);
    const result = outcome.payload as { statusCode?: unknown; headers?: Record<string, unknown>; multiValueHeaders?: Record<string, unknown[]>; body?: unknown; isBase64Encoded?: unknown } | null;
    if (!result || typeof result.statusCode !== 'number' || (result.body !== undefined && result.body !== null && typeof result.body !== 'string')) {
      // A malformed Lambda proxy response.
      return this.gatewayError('DEFAULT_5XX', request, 502);
    }
    const responseHeaders: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) responseHeaders[name] = String(value);
    for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) responseHeaders[name] = values.map(String);
    const body = typeof result.body === 'string' ? Buffer.from(result.body, result.isBase64Encoded === true ? 'base64' : 'utf8') : Buffer.alloc(0);
    if (!Object.keys(responseHeaders).some((name) => name.toLowerCase() === 'content-type')) responseHeaders['Content-Type'] = 'application/json';
    return { status: result.statusCode, headers: responseHeaders, body };
  }

  /** Resource matching: static path parts before `{param}` ones; a trailing slash is ignored. */
  private matchResource(path: string): { resource: ApiResource; params: Record<string, string> } | undefined {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const segments = trimmed === '/' ? [] : trimmed.slice(1).split('/');
    const walk = (node: ApiResource, index: number, params: Record<string, string>): { resource: ApiResource; params: Record<string, string> } | undefined => {
      if (index === segments.length) return { resource: node, params };
      const segment = segments[index] as string;
      const exact = node.children.find((child) => child.pathPart === segment);
      const found = exact ? walk(exact, index + 1, params) : undefined;
      if (found) return found;
      for (const child of node.children.filter((candidate) => /^\{[^+]+\}$/.test(candidate.pathPart))) {
        if (segment === '') continue;
        let decoded: string;
        try {
          decoded = decodeURIComponent(segment);
        } catch {
          continue;
        }
        const deeper = walk(child, index + 1, { ...params, [child.pathPart.slice(1, -1)]: decoded });
        if (deeper) return deeper;
      }
      return undefined;
    };
    return walk(this.root, 0, {});
  }

  private async authorize(method: ApiMethod, request: GatewayRequest, resourcePath: string, path: string): Promise<Record<string, unknown> | string> {
    const authorizer = this.authorizers.get(method.authorizerId ?? '');
    if (!authorizer || authorizer.type !== 'REQUEST') throw new Error('Only REQUEST authorizers are emulated');
    const identity: string[] = [];
    for (const source of authorizer.identitySources) {
      const header = /^method\.request\.header\.(.+)$/.exec(source)?.[1];
      if (!header) throw new Error(`Identity source ${source} is not emulated`);
      const value = Object.entries(request.headers).find(([name]) => name.toLowerCase() === header.toLowerCase())?.[1];
      // A missing identity source is a 401 without calling the authorizer.
      if (!value) return 'UNAUTHORIZED';
      identity.push(value);
    }
    const methodArn = `arn:aws:execute-api:${this.region}:${this.accountId}:${this.apiId}/${this.stageName}/${request.method}${path}`;
    const cacheKey = `${method.authorizerId}|${identity.join('|')}`;
    let result = authorizer.ttlSeconds > 0 ? this.authorizerCache.get(cacheKey) : undefined;
    if (!result || result.expires < Date.now()) {
      const event = { ...this.proxyEvent(request, resourcePath, path, {}, null), type: 'REQUEST', methodArn };
      this.authorizerInvocations += 1;
      const outcome = await this.lambda.invoke(authorizer.functionId, event, request.requestId);
      if (outcome.kind === 'function-error' && outcome.errorMessage === 'Unauthorized') return 'UNAUTHORIZED';
      if (outcome.kind !== 'ok') return 'AUTHORIZER_FAILURE';
      const payload = outcome.payload as AuthorizerResult;
      if (!payload?.principalId || !payload.policyDocument) return 'AUTHORIZER_CONFIGURATION_ERROR';
      result = { result: payload, expires: Date.now() + authorizer.ttlSeconds * 1000 };
      if (authorizer.ttlSeconds > 0) this.authorizerCache.set(cacheKey, result);
    }
    if (!policyAllows(result.result, methodArn)) return 'ACCESS_DENIED';
    // The API's key source is AUTHORIZER: a method that requires an API key takes the authorizer's
    // usageIdentifierKey (that the key is in a usage plan is the admin CLI's doing, not the template's).
    if (method.apiKeyRequired && !result.result.usageIdentifierKey) return 'INVALID_API_KEY';
    const context: Record<string, unknown> = { principalId: result.result.principalId, integrationLatency: 0 };
    for (const [key, value] of Object.entries(result.result.context ?? {})) context[key] = String(value);
    return context;
  }

  private isBinary(contentType: string | undefined): boolean {
    const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    return this.binaryMediaTypes.some((pattern) => matchesWildcard(pattern.toLowerCase(), type));
  }

  private proxyEvent(request: GatewayRequest, resourcePath: string, path: string, params: Record<string, string>, authorizer: Record<string, unknown> | null): Record<string, unknown> {
    const contentType = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    const binary = this.isBinary(contentType);
    const keys = [...new Set(request.query.keys())];
    const now = new Date();
    const headers: Record<string, string> = { ...request.headers, 'X-Forwarded-For': request.sourceIp, 'X-Forwarded-Proto': 'https' };
    const multiValueHeaders = { ...request.multiValueHeaders, 'X-Forwarded-For': [request.sourceIp], 'X-Forwarded-Proto': ['https'] };
    return {
      resource: resourcePath,
      path,
      httpMethod: request.method,
      headers,
      multiValueHeaders,
      queryStringParameters: keys.length === 0 ? null : Object.fromEntries(keys.map((key) => [key, request.query.getAll(key).at(-1)])),
      multiValueQueryStringParameters: keys.length === 0 ? null : Object.fromEntries(keys.map((key) => [key, request.query.getAll(key)])),
      pathParameters: Object.keys(params).length === 0 ? null : params,
      stageVariables: this.stageVariables,
      body: request.body.length === 0 ? null : request.body.toString(binary ? 'base64' : 'utf8'),
      isBase64Encoded: binary && request.body.length > 0,
      requestContext: {
        accountId: this.accountId,
        apiId: this.apiId,
        authorizer,
        domainName: headers.host ?? headers.Host ?? `${this.apiId}.execute-api.${this.region}.amazonaws.com`,
        domainPrefix: this.apiId,
        extendedRequestId: request.requestId,
        httpMethod: request.method,
        identity: { sourceIp: request.sourceIp, userAgent: headers['user-agent'] ?? headers['User-Agent'] ?? null },
        path: `/${this.stageName}${path}`,
        protocol: 'HTTP/1.1',
        requestId: request.requestId,
        requestTime: requestTime(now),
        requestTimeEpoch: now.getTime(),
        resourceId: resourcePath,
        resourcePath,
        stage: this.stageName,
      },
    };
  }

  /** A MOCK integration: the request template picks the status, the integration response answers. */
  private mock(method: ApiMethod, request: GatewayRequest): GatewayAnswer {
    const templates = (method.integration.RequestTemplates as Record<string, string> | undefined) ?? {};
    const selected = JSON.parse(templates['application/json'] ?? '{"statusCode": 200}') as { statusCode: number };
    const responses = (method.integration.IntegrationResponses as Record<string, unknown>[] | undefined) ?? [];
    const chosen = responses.find((response) => String(response.StatusCode) === String(selected.statusCode)) ?? responses.find((response) => !response.SelectionPattern);
    if (!chosen) return this.gatewayError('API_CONFIGURATION_ERROR', request);
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    for (const [name, value] of Object.entries((chosen.ResponseParameters as Record<string, string> | undefined) ?? {})) {
      const header = /^method\.response\.header\.(.+)$/.exec(name)?.[1];
      if (header) headers[header] = this.parameterValue(value, request);
    }
    const body = ((chosen.ResponseTemplates as Record<string, string> | undefined) ?? {})['application/json'] ?? '';
    return { status: Number(chosen.StatusCode), headers, body: Buffer.from(body) };
  }

  private parameterValue(expression: string, request: GatewayRequest): string {
    if (/^'.*'$/s.test(expression)) return expression.slice(1, -1);
    if (expression === 'context.requestId') return request.requestId;
    const header = /^method\.request\.header\.(.+)$/.exec(expression)?.[1];
    if (header) return Object.entries(request.headers).find(([name]) => name.toLowerCase() === header.toLowerCase())?.[1] ?? '';
    throw new Error(`Parameter mapping ${expression} is not emulated`);
  }

  /**
   * A gateway response of `type`: the template's response for the type, else DEFAULT_4XX/DEFAULT_5XX;
   * the status is the configured one, else the type's own (`status` for the catch-alls).
   */
  gatewayError(type: string, request: GatewayRequest, status = RESPONSE_TYPE_STATUS[type] ?? 500): GatewayAnswer {
    const configured = this.gatewayResponses.get(type) ?? this.gatewayResponses.get(status >= 500 ? 'DEFAULT_5XX' : 'DEFAULT_4XX');
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    for (const [name, value] of Object.entries(configured?.parameters ?? {})) {
      const header = /^gatewayresponse\.header\.(.+)$/.exec(name)?.[1];
      if (header) headers[header] = this.parameterValue(value, request);
    }
    const template = configured?.templates['application/json'];
    const body = template ?? JSON.stringify({ message: DEFAULT_MESSAGES[type] ?? (status >= 500 ? 'Internal server error' : 'Forbidden') });
    return { status: configured?.statusCode ? Number(configured.statusCode) : status, headers, body: Buffer.from(body.replace(/\$context\.requestId/g, request.requestId)) };
  }
}
