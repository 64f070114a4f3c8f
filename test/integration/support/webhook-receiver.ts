import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

/** How the receiver answers one request: a status, or `hang` (accept, never answer). */
export type Answer = number | 'hang';

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests. Each path answers from its script in turn
 * (the last answer repeats; 200 by default) and records every request it gets.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private readonly hanging = new Set<ServerResponse>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        this.received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() });
        const script = this.scripts.get(path) ?? [200];
        const answer = script.length > 1 ? (script.shift() as Answer) : (script[0] as Answer);
        if (answer === 'hang') {
          this.hanging.add(response);
          return;
        }
        response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : `nope ${answer}`);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Answers for `path`, in order; the last one repeats. */
  script(path: string, ...answers: Answer[]): string {
    this.scripts.set(path, answers);
    return `${this.url}${path}`;
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  /** Waits until `predicate` holds over what arrived (polling), or fails after `timeoutMs`. */
  async until(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.received)) {
      if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms; got ${this.received.length} requests`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
