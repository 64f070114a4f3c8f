import { logger } from '../../shared/logger.js';

/** Functions the emulator has invoked since it started. */
const warm = new Set<string>();

/**
 * Lambda runs each function in its own execution environment, whose first invocation is a cold start
 * (Powertools logs `cold_start: true` once per environment). The emulator runs every function in one
 * process with one logger, which would log a cold start for the first request of the whole server
 * only; so before a function's first invocation it re-arms the logger's cold-start flag (Powertools'
 * `Utility.coldStart`, which `addContext` reads and clears). Call it right before invoking the
 * handler, with nothing awaited in between, so that this function's `addContext` is the one that
 * reads it.
 */
export function emulateColdStart(functionName: string): void {
  if (warm.has(functionName)) return;
  warm.add(functionName);
  (logger as unknown as { coldStart: boolean }).coldStart = true;
}
