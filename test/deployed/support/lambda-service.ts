import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Lambda's synchronous invocation limits (request and response payloads). */
export const LAMBDA_REQUEST_LIMIT_BYTES = 6 * 1024 * 1024;
export const LAMBDA_RESPONSE_LIMIT_BYTES = 6 * 1024 * 1024 + 100;

const RUNNER = fileURLToPath(new URL('./lambda-runner.mjs', import.meta.url));

export interface FunctionDefinition {
  readonly logicalId: string;
  readonly functionName: string;
  /** The unpacked asset (what the zip holds). */
  readonly codeDir: string;
  /** `index.handler` */
  readonly handler: string;
  readonly environment: Readonly<Record<string, string>>;
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
  readonly runtime: string;
}

export type InvokeOutcome =
  | { kind: 'ok'; payload: unknown }
  | { kind: 'function-error'; errorType: string; errorMessage: string }
  /** Lambda refused the invocation before running anything (payload over the limit). */
  | { kind: 'refused'; reason: string };

interface Pending {
  resolve(outcome: InvokeOutcome): void;
}

/** One execution environment: a Node process running the runner with the function's environment. */
class ExecutionEnvironment {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  readonly logs: string[] = [];

  constructor(definition: FunctionDefinition, credentials: Readonly<Record<string, string>>) {
    const [moduleName, exportName] = splitHandler(definition.handler);
    const file = ['.mjs', '.js', '.cjs'].map((extension) => join(definition.codeDir, `${moduleName}${extension}`)).find((candidate) => existsSync(candidate));
    if (!file) throw new Error(`${definition.logicalId}: no ${moduleName}.mjs/.js in ${definition.codeDir}`);
    this.child = fork(RUNNER, [file, exportName], {
      cwd: definition.codeDir,
      // Only what Lambda sets plus the template's variables: nothing leaks in from the test process.
      env: {
        PATH: process.env.PATH ?? '',
        TZ: ':UTC',
        LANG: 'en_US.UTF-8',
        LAMBDA_TASK_ROOT: definition.codeDir,
        _HANDLER: definition.handler,
        AWS_EXECUTION_ENV: `AWS_Lambda_${definition.runtime}`,
        AWS_LAMBDA_FUNCTION_NAME: definition.functionName,
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(definition.memoryMb),
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        ...credentials,
        ...definition.environment,
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const keep = (chunk: Buffer) => {
      this.logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      if (this.logs.length > 200) this.logs.splice(0, this.logs.length - 200);
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.child.on('message', (message: { id?: number; payload?: string; error?: { errorType: string; errorMessage: string } }) => {
      if (message.id === undefined) return;
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (!waiting) return;
      if (message.error) waiting.resolve({ kind: 'function-error', ...message.error });
      else if (Buffer.byteLength(message.payload ?? '') > LAMBDA_RESPONSE_LIMIT_BYTES) {
        waiting.resolve({ kind: 'function-error', errorType: 'Function.ResponseSizeTooLarge', errorMessage: 'Response payload size exceeded maximum allowed payload size' });
      } else waiting.resolve({ kind: 'ok', payload: JSON.parse(message.payload ?? 'null') });
    });
    this.child.on('exit', (code) => {
      for (const waiting of this.pending.values()) waiting.resolve({ kind: 'function-error', errorType: 'Runtime.ExitError', errorMessage: `Runtime exited with code ${code}` });
      this.pending.clear();
    });
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  invoke(event: unknown, context: Record<string, unknown>, timeoutMs: number): Promise<InvokeOutcome> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        // A timed-out environment is not reused.
        this.child.kill('SIGKILL');
        resolve({ kind: 'function-error', errorType: 'Sandbox.Timedout', errorMessage: `Task timed out after ${timeoutMs / 1000} seconds` });
      }, timeoutMs);
      this.pending.set(id, { resolve: (outcome) => { clearTimeout(timer); resolve(outcome); } });
      this.child.send({ id, event, context: { ...context, remainingMs: timeoutMs } });
    });
  }

  stop(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }
}

function splitHandler(handler: string): [string, string] {
  const dot = handler.lastIndexOf('.');
  return [handler.slice(0, dot), handler.slice(dot + 1)];
}

/**
 * Lambda, for the functions of a template: each function runs in its own Node process (started on
 * first use, like a cold start) with exactly the template's environment; invocations of one function
 * run one at a time; payloads over Lambda's limits are refused as Lambda refuses them.
 */
export class LambdaService {
  private readonly environments = new Map<string, ExecutionEnvironment>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly functions: ReadonlyMap<string, FunctionDefinition>,
    /** AWS credentials and region (plus endpoint overrides) every function gets. */
    private readonly credentials: Readonly<Record<string, string>>,
  ) {}

  definition(logicalId: string): FunctionDefinition {
    const definition = this.functions.get(logicalId);
    if (!definition) throw new Error(`No function ${logicalId} in the template`);
    return definition;
  }

  async invoke(logicalId: string, event: unknown, requestId: string): Promise<InvokeOutcome> {
    const definition = this.definition(logicalId);
    const payload = JSON.stringify(event);
    if (Buffer.byteLength(payload) > LAMBDA_REQUEST_LIMIT_BYTES) {
      return { kind: 'refused', reason: `${Buffer.byteLength(payload)} byte payload is too large for the RequestResponse invocation type (limit ${LAMBDA_REQUEST_LIMIT_BYTES} bytes)` };
    }
    const previous = this.queues.get(logicalId) ?? Promise.resolve();
    const run = previous.then(async () => {
      let environment = this.environments.get(logicalId);
      if (!environment?.alive) {
        environment = new ExecutionEnvironment(definition, this.credentials);
        this.environments.set(logicalId, environment);
      }
      return environment.invoke(JSON.parse(payload), {
        functionName: definition.functionName,
        functionVersion: '$LATEST',
        invokedFunctionArn: `arn:aws:lambda:${this.credentials.AWS_REGION}:123456789012:function:${definition.functionName}`,
        memoryLimitInMB: String(definition.memoryMb),
        awsRequestId: requestId,
        logGroupName: `/aws/lambda/${definition.functionName}`,
        logStreamName: 'deployed-tier',
      }, definition.timeoutSeconds * 1000);
    });
    this.queues.set(logicalId, run.catch(() => undefined));
    return run;
  }

  /** The last log lines of a function's environment (for divergence reports). */
  logs(logicalId: string): string[] {
    return this.environments.get(logicalId)?.logs ?? [];
  }

  close(): void {
    for (const environment of this.environments.values()) environment.stop();
    this.environments.clear();
  }
}
