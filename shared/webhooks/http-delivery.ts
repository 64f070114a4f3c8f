import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveAllowed, UrlRefusedError, type Lookup, type ResolvedAddress, type UrlPolicy } from './url-guard.js';

export interface PostOptions {
  /** The whole attempt (connect, send, response, body) must finish within this. */
  timeoutMs: number;
  /** At most this much of the response body is read; the connection is closed after it. */
  maxResponseBytes: number;
  policy: UrlPolicy;
  lookup?: Lookup;
}

export interface PostResult {
  /** The receiver's status, when it answered. */
  statusCode?: number;
  /** Why the attempt failed before a status (refused address, timeout, connection error). */
  error?: string;
  /** The start of the response body, as read (at most `maxResponseBytes`). */
  responseBody?: Buffer;
}

/** Connects to exactly the address that was checked, whatever DNS answers a moment later (no rebinding). */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

function describe(error: Error & { code?: string }, timeoutMs: number): string {
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  return error.code ? `connection failed (${error.code})` : `connection failed (${error.message})`;
}

/**
 * POSTs one webhook: re-checks the URL and every address its host resolves to now (the SSRF guard at
 * send time), connects to the checked address, sends no redirect-following, stops after `timeoutMs`,
 * and reads at most `maxResponseBytes` of the answer.
 */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, options: PostOptions): Promise<PostResult> {
  let addresses: ResolvedAddress[] | undefined;
  try {
    addresses = await resolveAllowed(url, options.policy, options.lookup);
  } catch (error) {
    if (error instanceof UrlRefusedError) return { error: `refused: the URL ${error.message}` };
    throw error;
  }
  const target = addresses?.[0];
  if (!target) return { error: 'the host name does not resolve' };
  const parsed = new URL(url);
  const send = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
  const signal = AbortSignal.timeout(options.timeoutMs);
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const outgoing = send(parsed, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: false,
      lookup: pinnedLookup(target),
      signal,
    }, (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => finish({ statusCode: response.statusCode ?? 0, responseBody: Buffer.concat(chunks).subarray(0, options.maxResponseBytes) });
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= options.maxResponseBytes) {
          done();
          response.destroy();
        }
      });
      response.on('end', done);
      // The status is known: a body cut short (or timed out while streaming) still counts by its status.
      response.on('error', done);
    });
    outgoing.on('error', (error) => finish({ error: describe(error, options.timeoutMs) }));
    outgoing.end(body);
  });
}
