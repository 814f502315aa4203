import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BENCH } from './bench.config';

export interface LoadResult {
  requests: number;
  /** How long wrk loaded the server: its run less the hold. */
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors, timeouts and answers other than 2xx or 3xx. */
  errors: number;
}

const run = promisify(execFile);
let runs = 0; // numbers each wrk run for load.lua

// How long each connection's first request waits, so that the server has accepted every
// connection before the load begins (load.lua's delay() says why). Idle, a server accepts 50
// in a few milliseconds.
export const HOLD_MS = 250;

/** Whether wrk is installed; the bench says how to install it when it is not. */
export async function hasWrk(): Promise<boolean> {
  try {
    await run('wrk', ['--version']);
    return true;
  } catch (error) {
    // wrk --version prints its banner and exits 1.
    return (error as { stdout?: string }).stdout?.startsWith('wrk') ?? false;
  }
}

/** One bounded load run of `scenario` (a mix of load.lua) against `url`. */
export async function loadFor(
  url: string,
  scenario: string,
  seconds: number,
  dataFile: string,
  connections: number = BENCH.connections,
): Promise<LoadResult> {
  const script = join(BENCH.root, 'bench', 'load.lua');
  const { stdout } = await run(
    'wrk',
    [
      '-t1',
      `-c${connections}`,
      `-d${seconds}s`,
      '--timeout',
      '5s',
      '-s',
      script,
      url,
      '--',
      scenario,
      dataFile,
      String(runs++),
      String(connections),
      String(HOLD_MS),
    ],
    { cwd: BENCH.root, timeout: (seconds + 30) * 1000 },
  );
  const line = stdout.split('\n').find((text) => text.startsWith('BENCH_RESULT '));
  if (!line) throw new Error(`wrk gave no result:\n${stdout}`);
  const raw = JSON.parse(line.slice('BENCH_RESULT '.length)) as Record<string, number>;
  // done() runs in wrk's main Lua state, which init() never saw: the hold is taken off here.
  const ran = raw.duration_us / 1e6 - HOLD_MS / 1000;
  return {
    requests: raw.requests,
    seconds: ran,
    requestsPerSecond: raw.requests / ran,
    p50Ms: raw.p50_us / 1000,
    p99Ms: raw.p99_us / 1000,
    errors: raw.errors + raw.non2xx,
  };
}
