import { afterEach, describe, expect, it, vi } from 'vitest';

// What Lambda (and the local environment, `applyLocalEnvironment`) sets before the logger is created.
vi.hoisted(() => {
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
});
import { lambdaContext } from '../../../bin/local/api-gateway-event.js';
import { emulateColdStart } from '../../../bin/local/cold-start.js';
import { logger } from '../../../shared/logger.js';

afterEach(() => {
  vi.restoreAllMocks();
  logger.setLogLevel('SILENT');
});

/** What the logger prints for one invocation of `functionName`, as the local server invokes it. */
function invoke(functionName: string, lines: string[]): void {
  emulateColdStart(functionName);
  logger.addContext(lambdaContext(functionName, `req-${lines.length}`));
  logger.info('request');
}

describe('local cold starts', () => {
  it('logs cold_start once per function, with that function name, as Lambda does', () => {
    // Prepare
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    logger.setLogLevel('INFO');

    // Act
    for (const name of ['boxoffice-forms', 'boxoffice-forms', 'boxoffice-events', 'boxoffice-forms', 'boxoffice-events']) invoke(name, lines);

    // Assess
    const logged = lines.map((line) => JSON.parse(line) as { function_name: string; cold_start: boolean });
    expect(logged.map((entry) => [entry.function_name, entry.cold_start])).toEqual([
      ['boxoffice-forms', true],
      ['boxoffice-forms', false],
      ['boxoffice-events', true],
      ['boxoffice-forms', false],
      ['boxoffice-events', false],
    ]);
  });
});
