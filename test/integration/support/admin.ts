import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface AdminResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run admin -- ...` the way an operator does (tsx entry), against the test DynamoDB. */
export async function admin(...args: string[]): Promise<AdminResult> {
  return adminWith(process.env, ...args);
}

/** `admin` with the given environment. */
export async function adminWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<AdminResult> {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'bin/admin.ts', ...args], { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as AdminResult;
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}
