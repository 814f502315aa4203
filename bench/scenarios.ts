import { join } from 'node:path';
import { BENCH } from './bench.config';
import { RunningServer, ServerKind, ServerOptions } from './servers';
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

export interface Measurement extends LoadResult {
  /** The largest resident memory of the server's processes after the scenario, MiB. */
  rssMiB: number;
}

export type ServerResults = Partial<Record<ScenarioName, Measurement>>;

export const DATA_FILE = join(BENCH.workDir, 'load-data.txt');

const PORTS: Record<ServerKind, number> = { service: 4101, nest: 4102, raw: 4103 };

/** Starts one server, runs `scenarios` against it (warm-up, then measured), and stops it. */
export async function measureServer(
  kind: ServerKind,
  processes: 1 | 2,
  scenarios: readonly ScenarioName[],
  options: BenchOptions,
  extra: Partial<ServerOptions> = {},
): Promise<ServerResults> {
  const label = `${kind}-${processes}p${extra.extraEnv ? '-variant' : ''}`;
  const server = await RunningServer.start({ kind, port: PORTS[kind], processes, ...extra }, label);
  const results: ServerResults = {};
  try {
    for (const scenario of scenarios) {
      results[scenario] = await measure(server, scenario, options);
      process.stdout.write('.');
    }
  } finally {
    await server.stop();
  }
  return results;
}

export async function measure(
  server: RunningServer,
  scenario: string,
  options: BenchOptions,
): Promise<Measurement> {
  await loadFor(server.url, scenario, options.warmupSeconds, DATA_FILE);
  const result = await loadFor(server.url, scenario, options.measureSeconds, DATA_FILE);
  return { ...result, rssMiB: Math.max(...server.rssMiB()) };
}

export function portOf(kind: ServerKind): number {
  return PORTS[kind];
}
