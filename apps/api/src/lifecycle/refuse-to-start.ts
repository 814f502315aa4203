import { hostname } from 'node:os';

/**
 * Ends a start that cannot go on, in one line: plain on standard error for the person at a
 * development terminal; elsewhere a JSON log line (fatal) on standard output, like every other
 * line the service writes, so that a log pipeline reads the refusal too.
 *
 * The line has pino's fields but is written here: require-supported-node.ts refuses before
 * anything else loads, and pino loaded that early would escape tracing's instrumentation
 * (telemetry/start-tracing.ts hooks the module loader after it).
 */
export function refuseToStart(reason: string): never {
  const msg = `Refusing to start: ${reason}`;
  if (process.env.NODE_ENV === 'development') {
    process.stderr.write(`${msg}\n`);
  } else {
    const line = { level: 60, time: Date.now(), pid: process.pid, hostname: hostname(), msg };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
  process.exit(1);
}
