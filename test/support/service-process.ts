import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import packageJson from '../../package.json';

// Runs the built service (dist/, made by `npm test`'s pretest build) as `npm start` does:
// `node .`, that is package.json's "main".
const MAIN = join(__dirname, '..', '..', packageJson.main);

export function startService(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function collect(stream: NodeJS.ReadableStream | null): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

export async function waitFor(
  read: () => string,
  pattern: RegExp,
  timeoutMs = 20_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = read().match(pattern);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`no ${String(pattern)} in output:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
