import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import packageJson from '../../package.json';
import { scaledMs } from './machine-load';

// The built service (dist/, made by `npm test`'s pretest build), as production runs it:
// `node .`, that is package.json's "main".
export const SERVICE_MAIN = join(__dirname, '..', '..', packageJson.main);

/** A service process and what it has written so far. */
export interface ServiceProcess {
  child: ChildProcess;
  output: () => string;
  errors: () => string;
  /** Resolves to the port once the service says it listens. */
  listening: () => Promise<number>;
  exit: () => Promise<{ code: number | null; signal: string | null }>;
}

/**
 * Starts `node <main>` (or another command) with only PATH from the test's environment, in
 * `cwd` (where development keeps its secrets; by default this process's own).
 */
export function startService(
  env: Record<string, string>,
  command: readonly string[] = [process.execPath, SERVICE_MAIN],
  cwd?: string,
): ServiceProcess {
  const child = spawn(command[0], command.slice(1), {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child.stdout);
  const errors = collect(child.stderr);
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as string | null,
  }));
  return {
    child,
    output,
    errors,
    listening: async () =>
      Number((await waitFor(output, /Listening on http:\/\/localhost:(\d+)\//))[1]),
    exit: () => exited,
  };
}

function collect(stream: NodeJS.ReadableStream | null): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

/** Polls `read()` until it matches `pattern`. */
export async function waitFor(
  read: () => string,
  pattern: RegExp,
  timeoutMs = 20_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + scaledMs(timeoutMs);
  for (;;) {
    const match = read().match(pattern);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`no ${String(pattern)} in output:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
