/** A tiny API client for seeders: demo data goes through the real API, so it obeys every rule. */
export interface SeedClient {
  workspaceId: string;
  apiKey: string;
  baseUrl: string;
  /** Sends a request and returns the parsed body; throws with the error envelope on a non-2xx status. */
  request<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
}

export function createSeedClient(baseUrl: string, workspaceId: string, apiKey: string): SeedClient {
  return {
    workspaceId,
    apiKey,
    baseUrl,
    async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : body instanceof Uint8Array ? body : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`Seeding ${method} ${path} failed with ${response.status}: ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
}

export type Seeder = (client: SeedClient) => Promise<void>;
