import { startLocalServer, type LocalServer } from '../../../bin/local/server.js';
import { localRoutes } from '../../../bin/local/local-routes.js';
import { createApiKey, createWorkspace } from '../../../shared/workspaces/workspaces-repository.js';
import { startLocalWebhooks, type LocalWebhooks, type LocalWebhooksOptions } from '../../../bin/local/webhooks/local-webhooks.js';
import { openApiDocument } from '../../../shared/openapi/document.js';
import { conformanceViolations } from '../../support/documented-schema.js';

export interface ApiResponse<T = any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Raw body bytes or string, sent as is (with `headers['content-type']`). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface TestWorkspace {
  workspaceId: string;
  apiKey: string;
}

export interface TestApi {
  url: string;
  server: LocalServer;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** A fresh workspace with a read-write key: every test file isolates its data this way. */
  newWorkspace(name?: string): Promise<TestWorkspace>;
  /** The local webhook delivery machinery, when started with `webhooks`. */
  webhooks: LocalWebhooks | undefined;
  close(): Promise<void>;
}

export interface StartApiOptions {
  /**
   * Also run webhook delivery (stream reader, dispatcher, local queue, sender), as `npm start` does,
   * from the stream's current end, with the given schedule and timeout.
   */
  webhooks?: Pick<LocalWebhooksOptions, 'schedule' | 'timeoutMs'>;
}

/** Starts the local server in this test worker, against the DynamoDB Local of the global setup. */
export async function startApi(options: StartApiOptions = {}): Promise<TestApi> {
  const document = openApiDocument() as unknown as Record<string, unknown>;
  // The authorizer cache is off here so that revocation and scope tests see each change at once; the
  // cache (on under npm start, as in AWS) has its own test in authorizer-cache.test.ts.
  const server = await startLocalServer({ port: 0, localRoutes, authorizerCacheTtlSeconds: 0 });
  const webhooks = options.webhooks
    ? await startLocalWebhooks({ endpoint: process.env.DYNAMODB_ENDPOINT as string, tableName: process.env.TABLE_NAME as string, startAt: 'LATEST', ...options.webhooks })
    : undefined;
  const request = async (method: string, path: string, options: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.key) headers.Authorization = `Bearer ${options.key}`;
    let body: string | Uint8Array | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(`${server.url}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    // Every answer a test receives is held to the document: a status, content type or body it does not
    // describe fails the test that received it, whatever that test asserts.
    const undocumented = conformanceViolations(document, method, path, { status: response.status, contentType: response.headers.get('content-type'), text, body: parsed });
    if (undocumented.length > 0) throw new Error(`The answer does not conform to the OpenAPI document:\n${undocumented.slice(0, 10).join('\n')}\n${text.slice(0, 500)}`);
    return { status: response.status, headers: response.headers, body: parsed as any, text }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  return {
    url: server.url,
    server,
    request,
    async newWorkspace(name = 'Test workspace') {
      const workspace = await createWorkspace(name);
      const { apiKey } = await createApiKey(workspace.id, 'read_write');
      return { workspaceId: workspace.id, apiKey };
    },
    webhooks,
    close: async () => {
      await webhooks?.stop();
      await server.close();
    },
  };
}
