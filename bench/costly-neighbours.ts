import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH } from './bench.config';
import { RunningServer } from './servers';
import { loadFor, type LoadResult } from './wrk.runner';

/**
 * SPEC 1.6, "costly queries are bounded": the p99 of index-backed single reads (S1) alone,
 * and beside 8 anonymous clients searching the million products for substrings no index
 * serves (`contains` of one character and of `%`), in alternating rounds on one server.
 * The searching clients behave as HTTP clients should: each waits for its answer, and after
 * a 503 for its Retry-After.
 */
const NEIGHBOURS = {
  clients: 8,
  searches: ['filter[name][contains]=a', 'filter[name][contains]=%25'],
  rounds: 3,
  seconds: 10,
  productIds: 1_000,
};

export interface NeighbourResults {
  alone: LoadResult[];
  beside: LoadResult[];
  /** The searching clients' answers over the rounds beside S1, by status. */
  searches: Record<string, number>;
}

/** Measures on a running service over the seeded products (ids `<prefix><hex i>`). */
export async function measureCostlyNeighbours(
  server: RunningServer,
  idOf: (i: number) => string,
  rows: number,
): Promise<NeighbourResults> {
  const dataFile = join(BENCH.workDir, 'scale-products.txt');
  const step = Math.floor(rows / NEIGHBOURS.productIds);
  const lines = Array.from(
    { length: NEIGHBOURS.productIds },
    (_, i) => `product ${idOf(1 + i * step)}`,
  );
  writeFileSync(dataFile, `${lines.join('\n')}\n`);
  await loadFor(server.url, 'S1', 2, dataFile);
  const results: NeighbourResults = { alone: [], beside: [], searches: {} };
  for (let round = 0; round < NEIGHBOURS.rounds; round += 1) {
    results.alone.push(await loadFor(server.url, 'S1', NEIGHBOURS.seconds, dataFile));
    const searching = searchers(server.url, results.searches);
    try {
      results.beside.push(await loadFor(server.url, 'S1', NEIGHBOURS.seconds, dataFile));
    } finally {
      await searching.stop();
    }
  }
  return results;
}

function searchers(
  serviceUrl: string,
  statuses: Record<string, number>,
): { stop(): Promise<void> } {
  let running = true;
  const client = async (index: number) => {
    const search = NEIGHBOURS.searches[index % NEIGHBOURS.searches.length];
    while (running) {
      const response = await fetch(`${serviceUrl}/products?limit=25&${search}`);
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      const wait = Number(response.headers.get('retry-after') ?? 0) * 1000;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
  const clients = Array.from({ length: NEIGHBOURS.clients }, (_, i) => client(i));
  return {
    stop: async () => {
      running = false;
      await Promise.all(clients);
    },
  };
}

/** The section of the scale report. */
export function renderNeighbours({ alone, beside, searches }: NeighbourResults): string {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const p99 = (runs: LoadResult[]) => median(runs.map((run) => run.p99Ms));
  const rps = (runs: LoadResult[]) => median(runs.map((run) => run.requestsPerSecond));
  const rounds = (runs: LoadResult[]) => runs.map((run) => run.p99Ms.toFixed(1)).join(', ');
  const answers = Object.entries(searches)
    .map(([status, count]) => `${count} x ${status}`)
    .join(', ');
  return [
    `### Index-backed reads beside costly searches (S1, ${BENCH.connections} connections, ${NEIGHBOURS.rounds} rounds of ${NEIGHBOURS.seconds} s)`,
    '',
    '| S1 | p99 ms (median of rounds) | req/s | rounds |',
    '| --- | ---: | ---: | --- |',
    `| alone | ${p99(alone).toFixed(1)} | ${Math.round(rps(alone))} | ${rounds(alone)} |`,
    `| beside ${NEIGHBOURS.clients} anonymous clients searching \`${NEIGHBOURS.searches.join('` and `')}\` | ${p99(beside).toFixed(1)} | ${Math.round(rps(beside))} | ${rounds(beside)} |`,
    '',
    `p99 beside them / alone: ${(p99(beside) / p99(alone)).toFixed(2)}x. The searches' answers: ${answers}.`,
  ].join('\n');
}
