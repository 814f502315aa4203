import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, resolve } from 'node:path';
import type { BenchOptions } from './options';
import {
  measure,
  median,
  Measurement,
  portOf,
  scenariosOf,
  ScenarioName,
  ServerResults,
  VARIANT_PORT,
} from './scenarios';
import { startPgBouncer } from '../test/support/pgbouncer';
import { BENCH } from './bench.config';
import { deadEndpoint } from './dead-endpoint';
import { JEMALLOC, jemallocInstalled, RunningServer, ServerOptions } from './servers';

export interface AgainstResults {
  /** What the other service is: the build in another checkout, or this one through PgBouncer. */
  other: string;
  current: ServerResults;
  previous: ServerResults;
  /**
   * Alternating rounds measured; each figure is the round with the median CPU per request,
   * but p50 and p99, the medians of the rounds', and RSS, the largest of all rounds.
   */
  rounds: number;
  /** Per scenario, the median over rounds of this CPU per request over that one's, minus 1. */
  cpuChange: Partial<Record<ScenarioName, number>>;
}

/**
 * `--against DIR`: this build's service and the one built in DIR, side by side, one process
 * each, every scenario on one right after the other (a change measured against its base).
 * `--rounds N` repeats that N times and reports the median round of each side and the median
 * change within a round, since one round on a shared machine swings by tens of percent.
 */
export async function measureAgainst(options: BenchOptions): Promise<AgainstResults> {
  const root = resolve(options.against!);
  // The folder's name, not its path: reports are saved in the repository.
  return measureSideBySide(`the build in --against ${basename(root)}`, { root }, options);
}

/**
 * `--pgbouncer`: this service direct to PostgreSQL against the same build through a PgBouncer
 * of the bench's own in transaction mode (DATABASE_POOLER=transaction), as `--against` does.
 */
export async function measureThroughPgBouncer(options: BenchOptions): Promise<AgainstResults> {
  const pooler = await startPgBouncer(BENCH.databaseUrl);
  try {
    return await measureSideBySide(
      'this build through PgBouncer 1.18 in transaction mode',
      { extraEnv: { DATABASE_URL: pooler.url, DATABASE_POOLER: 'transaction' } },
      options,
    );
  } finally {
    await pooler.stop();
  }
}

/**
 * `--tracing`: this service with the OTEL_* variables unset against the same build exporting
 * a span tree for every request (OTLP/HTTP, protobuf) to a receiver in the bench's process
 * that answers at once, as a collector on the same host would.
 */
export async function measureWithTracing(options: BenchOptions): Promise<AgainstResults> {
  const receiver = createServer((request, response) => {
    request.resume().on('end', () => response.writeHead(200).end());
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const { port } = receiver.address() as AddressInfo;
  try {
    return await measureSideBySide(
      'this build tracing every request to a local OTLP/HTTP receiver',
      { extraEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` } },
      options,
    );
  } finally {
    receiver.close();
  }
}

/**
 * `--node-args "FLAGS"`: this service as production starts it against the same build started
 * with FLAGS after production's own (V8's heap settings, say), as `--against` does.
 */
export async function measureWithNodeArgs(options: BenchOptions): Promise<AgainstResults> {
  const nodeArgs = [...options.nodeArgs!];
  return measureSideBySide(`this build started with ${nodeArgs.join(' ')}`, { nodeArgs }, options);
}

/**
 * `--glibc`: this service on jemalloc, as the image runs it, against the same build on glibc's
 * malloc (nothing preloaded).
 */
export async function measureOnGlibcMalloc(options: BenchOptions): Promise<AgainstResults> {
  if (!jemallocInstalled) throw new Error(`--glibc compares with ${JEMALLOC}, not installed here`);
  return measureSideBySide(
    "this build on glibc's malloc",
    { extraEnv: { LD_PRELOAD: '' } },
    options,
  );
}

/**
 * `--webhooks`: the service with an active webhook endpoint whose receiver takes every
 * connection and never answers, against the same service with that endpoint disabled (SPEC
 * 1.17: a dead endpoint slows no write). One process, the endpoint switched before each half
 * of a round: two services on one database would both deliver to it.
 */
export async function measureWithDeadEndpoint(options: BenchOptions): Promise<AgainstResults> {
  const server = await RunningServer.start(
    { kind: 'service', port: portOf('service'), processes: 1, extraEnv: deadEndpoint.env },
    'service-webhooks',
  );
  const endpoint = await deadEndpoint.subscribe(server.url);
  try {
    const sides: [Side, Side] = [
      { server, enter: () => endpoint.set('active') },
      { server, enter: () => endpoint.set('disabled') },
    ];
    return await alternate('this service with its dead endpoint disabled', sides, options);
  } finally {
    await server.stop();
    endpoint.close();
  }
}

async function measureSideBySide(
  other: string,
  otherServer: Pick<ServerOptions, 'root' | 'extraEnv' | 'nodeArgs'>,
  options: BenchOptions,
): Promise<AgainstResults> {
  const [current, previous] = await Promise.all([
    RunningServer.start({ kind: 'service', port: portOf('service'), processes: 1 }, 'current'),
    RunningServer.start(
      { kind: 'service', port: VARIANT_PORT, processes: 1, ...otherServer },
      'other',
    ),
  ]);
  try {
    return await alternate(other, [{ server: current }, { server: previous }], options);
  } finally {
    await Promise.all([current.stop(), previous.stop()]);
  }
}

/** What one side of a comparison measures: a server, and what to do before each of its runs. */
interface Side {
  server: RunningServer;
  enter?: () => Promise<void>;
}

async function alternate(
  other: string,
  [current, previous]: [Side, Side],
  options: BenchOptions,
): Promise<AgainstResults> {
  const rounds = options.rounds ?? 1;
  const results: AgainstResults = { other, current: {}, previous: {}, rounds, cpuChange: {} };
  const run = async (side: Side, name: ScenarioName) => {
    await side.enter?.();
    return measure(side.server, name, options);
  };
  for (const { name } of scenariosOf(options)) {
    process.stdout.write(`against, ${name}:`);
    const [now, before]: Measurement[][] = [[], []];
    for (let round = 1; round <= rounds; round++) {
      process.stdout.write(` ${round}`);
      // Each side goes first every other round: the first of a pair may find the caches
      // warmer or the machine quieter.
      if (round % 2) {
        now.push(await run(current, name));
        before.push(await run(previous, name));
      } else {
        before.push(await run(previous, name));
        now.push(await run(current, name));
      }
    }
    const list = (side: Measurement[]) => side.map((m) => cpu(m).toFixed(0)).join(' ');
    process.stdout.write(`\n  µs/request, this: ${list(now)}; that: ${list(before)}\n`);
    results.current[name] = medianRound(now);
    results.previous[name] = medianRound(before);
    // The two of a round ran seconds apart: their ratio moves less than either figure.
    const changes = now.map((m, round) => cpu(m) / cpu(before[round]) - 1);
    results.cpuChange[name] = median(changes, (change) => change);
  }
  return results;
}

const cpu = (measurement: Measurement) => measurement.cpuMicrosPerRequest;

// The round with the median CPU per request, with the largest RSS of all rounds (memory
// after the load is what the side reached, not what one round left) and the median p50 and
// p99 (latency swings with the machine apart from the CPU a round took).
function medianRound(rounds: Measurement[]): Measurement {
  return {
    ...median(rounds, cpu),
    p50Ms: median(rounds, (m) => m.p50Ms).p50Ms,
    p99Ms: median(rounds, (m) => m.p99Ms).p99Ms,
    rssMiB: Math.max(...rounds.map((m) => m.rssMiB)),
  };
}
