import { join } from 'node:path';
import { BENCH } from './bench.config';
import { emptyCarts } from './fixtures';
import { RunningServer, ServerKind } from './servers';
import { LoadResult, loadFor } from './wrk.runner';
import type { BenchOptions } from './options';

/** The scenarios of the performance issue, in the order they run (S3 last: it adds rows). */
export const SCENARIOS = [
  { name: 'S1', title: 'GET /products/{id}' },
  { name: 'S2', title: 'GET /products?limit=25' },
  { name: 'S2f', title: 'S2 + filter[price_cents][gte]=90000' },
  { name: 'S5', title: 'GET /carts/{id}, customer session' },
  { name: 'S6', title: 'POST /cart_items, then DELETE it' },
  { name: 'S3', title: 'POST /products (admin)' },
] as const;

export type ScenarioName = (typeof SCENARIOS)[number]['name'];

/** The scenarios this run measures: `--only S1,S2`, or all. */
export function scenariosOf(options: BenchOptions): (typeof SCENARIOS)[number][] {
  return SCENARIOS.filter(({ name }) => !options.only || options.only.includes(name));
}

export interface Measurement extends LoadResult {
  /** The largest resident memory of the server's processes after the scenario, MiB. */
  rssMiB: number;
  /**
   * The server's CPU time per request in the measured window, µs: on a shared machine this
   * moves far less than req/s, which also counts the time the server waited for a core.
   */
  cpuMicrosPerRequest: number;
  /**
   * The rounds this figure combines, in the order they ran: the peer comparison compares
   * servers round by round, since their runs of one round are seconds apart.
   */
  rounds?: readonly Measurement[];
}

export type ServerResults = Partial<Record<ScenarioName, Measurement>>;

export const DATA_FILE = join(BENCH.workDir, 'load-data.txt');

const PORTS: Record<ServerKind, number> = {
  service: 4101,
  nest: 4102,
  raw: 4103,
  feathers: 4105,
  platformatic: 4107,
  nestFastify: 4106,
};
/** A second service beside the first, started with other settings. */
export const VARIANT_PORT = 4104;

/** The peers the service is measured against, in the order of the report's columns. */
export const BASELINES: readonly { kind: Exclude<ServerKind, 'service'>; label: string }[] = [
  { kind: 'nest', label: 'Nest express' },
  { kind: 'nestFastify', label: 'Nest fastify' },
  { kind: 'feathers', label: 'Feathers' },
  { kind: 'platformatic', label: 'Platformatic DB' },
  { kind: 'raw', label: 'raw' },
];

export const SERVER_KINDS: ServerKind[] = ['service', ...BASELINES.map(({ kind }) => kind)];

// Feathers and Platformatic DB serve the scenarios the performance issues compare them on.
const PRODUCT_SCENARIOS = new Set<string>(['S1', 'S2', 'S2f', 'S3']);
const PRODUCTS_ONLY = new Set<ServerKind>(['feathers', 'platformatic']);

/** Whether a server of `kind` answers `scenario` (the products-only peers: S1, S2, S2f, S3). */
export function serves(kind: ServerKind, scenario: string): boolean {
  return !PRODUCTS_ONLY.has(kind) || PRODUCT_SCENARIOS.has(scenario);
}

/**
 * The rounds of the peer comparison when `--rounds` does not say: each server measured this
 * many times per scenario, in a new random order each round, so that a busier or quieter
 * stretch of the shared machine, or the first turn of a round, falls on no server more than
 * on another (one pass in a fixed order put one build at 0.43x to 0.85x a peer on S1).
 */
export const PEER_ROUNDS = 5;
const REWARM_SECONDS = 1;

/** The rounds of each scenario in the peer comparison. */
export function peerRounds(options: BenchOptions): number {
  return options.rounds ?? PEER_ROUNDS;
}

/**
 * Starts the servers side by side and measures each scenario on all of them, warmed up, in
 * interleaved rounds, so that the figures a ratio compares are taken seconds apart.
 */
export async function measureAll(
  processes: 1 | 2,
  options: BenchOptions,
): Promise<Record<ServerKind, ServerResults>> {
  const servers = await Promise.all(
    SERVER_KINDS.map((kind) =>
      RunningServer.start({ kind, port: PORTS[kind], processes }, `${kind}-${processes}p`),
    ),
  );
  const results = Object.fromEntries(SERVER_KINDS.map((kind) => [kind, {}])) as Record<
    ServerKind,
    ServerResults
  >;
  try {
    for (const { name } of scenariosOf(options)) {
      process.stdout.write(` ${name}`);
      const serving = servers.filter((server) => serves(server.options.kind, name));
      const rounds = await measureInRounds(serving, name, options);
      serving.forEach((server, at) => {
        results[server.options.kind][name] = combineRounds(rounds[at]);
      });
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
  return results;
}

// Each round runs the servers in a new random order. A server warms up just before its first
// round, for the warm-up times its processes: node:cluster gives each of two processes half
// the requests, and so each as many as one process alone gets (after 3 s, the service's two
// processes read S1's p99 at 7.4x p50 in the next 6 s, 3.3x to 4.2x later; 2026-11-27). It
// warms up for REWARM_SECONDS before each other round: while the others took their turns its
// pool closed the connections idle for 10 s (pg's default), and its round would open by
// connecting again and preparing its statements anew. With two processes each, the five
// servers' pools together would hold more connections than PostgreSQL's default 100 if they
// took turns, so each server then runs its rounds in one go.
async function measureInRounds(
  servers: RunningServer[],
  scenario: string,
  options: BenchOptions,
): Promise<Measurement[][]> {
  const measured = servers.map((): Measurement[] => []);
  const turn = async (at: number) => {
    const { processes } = servers[at].options;
    const warmup = measured[at].length === 0 ? options.warmupSeconds * processes : REWARM_SECONDS;
    await loadFor(servers[at].url, scenario, warmup, DATA_FILE);
    measured[at].push(await measureLoad(servers[at], scenario, options.roundSeconds));
  };
  const everyServer = servers.map((_, at) => at);
  const rounds = [...Array(peerRounds(options)).keys()];
  const interleaved = servers.every((server) => server.options.processes === 1);
  const turns = interleaved
    ? rounds.flatMap(() => shuffled(everyServer))
    : everyServer.flatMap((at) => rounds.map(() => at));
  for (const at of turns) await turn(at);
  return measured;
}

function shuffled<T>(values: readonly T[]): T[] {
  const result = [...values];
  for (let at = result.length - 1; at > 0; at--) {
    const other = Math.floor(Math.random() * (at + 1));
    [result[at], result[other]] = [result[other], result[at]];
  }
  return result;
}

// Rates and CPU from the totals of the rounds, p50 and p99 the medians of the rounds' (a
// percentile of the whole cannot be rebuilt from the rounds'; the report shows the worst
// round's tail beside), RSS the largest. The rounds stay, for the per-round ratios.
function combineRounds(rounds: Measurement[]): Measurement {
  const total = (of: (round: Measurement) => number) =>
    rounds.reduce((sum, round) => sum + of(round), 0);
  const requests = total((round) => round.requests);
  const seconds = total((round) => round.seconds);
  return {
    requests,
    seconds,
    requestsPerSecond: requests / seconds,
    p50Ms: median(rounds, (round) => round.p50Ms).p50Ms,
    p99Ms: median(rounds, (round) => round.p99Ms).p99Ms,
    errors: total((round) => round.errors),
    rssMiB: Math.max(...rounds.map((round) => round.rssMiB)),
    cpuMicrosPerRequest: total((round) => round.cpuMicrosPerRequest * round.requests) / requests,
    rounds,
  };
}

/** The middle value by `by` (the lower middle of an even count). */
export function median<T>(values: readonly T[], by: (value: T) => number): T {
  const sorted = [...values].sort((a, b) => by(a) - by(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** A warm-up, then one measured run: what the comparisons and the profile use. */
export async function measure(
  server: RunningServer,
  scenario: string,
  options: BenchOptions,
): Promise<Measurement> {
  await loadFor(server.url, scenario, options.warmupSeconds, DATA_FILE, options.connections);
  return measureLoad(server, scenario, options.measureSeconds, options.connections);
}

// The carts are emptied before and after, so that each run's first adds are not 409.
async function measureLoad(
  server: RunningServer,
  scenario: string,
  seconds: number,
  connections?: number,
): Promise<Measurement> {
  await emptyCarts();
  const cpuBefore = server.cpuMicros();
  const result = await loadFor(server.url, scenario, seconds, DATA_FILE, connections);
  const cpuMicrosPerRequest = (server.cpuMicros() - cpuBefore) / result.requests;
  await emptyCarts();
  return { ...result, rssMiB: Math.max(...server.rssMiB()), cpuMicrosPerRequest };
}

export function portOf(kind: ServerKind): number {
  return PORTS[kind];
}
