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
}

export type ServerResults = Partial<Record<ScenarioName, Measurement>>;

export const DATA_FILE = join(BENCH.workDir, 'load-data.txt');

const PORTS: Record<ServerKind, number> = {
  service: 4101,
  nest: 4102,
  raw: 4103,
  feathers: 4105,
  nestFastify: 4106,
};
/** A second service beside the first, started with other settings. */
export const VARIANT_PORT = 4104;

/** The peers the service is measured against, in the order of the report's columns. */
export const BASELINES: readonly { kind: Exclude<ServerKind, 'service'>; label: string }[] = [
  { kind: 'nest', label: 'Nest express' },
  { kind: 'nestFastify', label: 'Nest fastify' },
  { kind: 'feathers', label: 'Feathers' },
  { kind: 'raw', label: 'raw' },
];

export const SERVER_KINDS: ServerKind[] = ['service', ...BASELINES.map(({ kind }) => kind)];

// The Feathers baseline serves the scenarios the performance issue compares it on.
const FEATHERS_SCENARIOS = new Set<string>(['S1', 'S2', 'S2f', 'S3']);

/** Whether a server of `kind` answers `scenario` (every server but Feathers answers all). */
export function serves(kind: ServerKind, scenario: string): boolean {
  return kind !== 'feathers' || FEATHERS_SCENARIOS.has(scenario);
}

/**
 * Starts the servers side by side and runs each scenario on one after the other, so
 * that the figures a ratio compares are taken seconds apart, not minutes.
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
      for (const server of servers) {
        if (!serves(server.options.kind, name)) continue;
        results[server.options.kind][name] = await measure(server, name, options);
      }
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
  return results;
}

export async function measure(
  server: RunningServer,
  scenario: string,
  options: BenchOptions,
): Promise<Measurement> {
  await loadFor(server.url, scenario, options.warmupSeconds, DATA_FILE);
  await emptyCarts();
  const cpuBefore = server.cpuMicros();
  const result = await loadFor(server.url, scenario, options.measureSeconds, DATA_FILE);
  const cpuMicrosPerRequest = (server.cpuMicros() - cpuBefore) / result.requests;
  await emptyCarts();
  return { ...result, rssMiB: Math.max(...server.rssMiB()), cpuMicrosPerRequest };
}

export function portOf(kind: ServerKind): number {
  return PORTS[kind];
}
