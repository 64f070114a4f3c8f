import { createServer } from 'node:net';

/**
 * A port `npm start` needs is held by another process. Its message is the one line `npm start` prints:
 * which port, what for, and the variable that picks another.
 */
export class PortInUseError extends Error {
  constructor(readonly port: number, readonly purpose: string, readonly variable: string, hint = '') {
    super(`Port ${port} (${purpose}) is already in use, perhaps by another npm start: choose another with ${variable}, e.g. ${variable}=${port + 1} npm start${hint}.`);
    this.name = 'PortInUseError';
  }
}

/** Whether something listens on `port`, on any local address (a bind on every interface fails then). */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(true);
      else reject(error);
    });
    probe.listen({ port, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

/** A port free on 127.0.0.1 right now (the OS picks it), for servers started by tests and the bench. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Refuses to go on when the port is taken. Without this, a second DynamoDB Local on a taken port dies
 * quietly while the readiness poll reaches the first one, and `npm start` writes into its data.
 */
export async function assertPortFree(port: number, purpose: string, variable: string, hint?: string): Promise<void> {
  if (port !== 0 && await portInUse(port)) throw new PortInUseError(port, purpose, variable, hint);
}
