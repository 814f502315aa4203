import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH } from './bench.config';
import { RunningServer } from './servers';
import { loadFor, type LoadResult } from './wrk.runner';

/**
 * SPEC 1.6, "costly queries are bounded": the p99 of index-backed single reads (S1) alone,
 * and beside 8 anonymous clients searching the million products for substrings no index
 * serves, in alternating rounds on one server: of one character and of `%`, and disguised as
 * cheap ones: circled digits (digits to Unicode, no trigram to pg_trgm), and trigrams every
 * seeded name or description has in a combination none holds (the index returns every row).
 * The searching clients behave as HTTP clients should: each waits for its answer, and after
 * a 503 for its Retry-After. Beside them a signed-in customer lists their own orders by an
 * unindexed member, every 200 ms: confined to their rows by an index, it is never refused.
 */
const NEIGHBOURS = {
  clients: 8,
  searches: [
    'filter[name][contains]=a',
    'filter[name][contains]=%25',
    `filter[name][contains]=${encodeURIComponent('\u2460\u2461\u2462')}`,
    'filter[name][contains]=uct%20pro',
    'filter[description][contains]=made%20sturdy',
  ],
  ownOrders: '/orders?filter[total_cents][gte]=0&order=item_count',
  ownOrdersEveryMs: 200,
  rounds: 3,
  seconds: 10,
  productIds: 1_000,
};

export interface NeighbourResults {
  alone: LoadResult[];
  beside: LoadResult[];
  /** The searching clients' answers over the rounds beside S1, by status. */
  searches: Record<string, number>;
  /** The customer's own-orders lists beside the searching clients, by status. */
  ownOrders: Record<string, number>;
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
  const results: NeighbourResults = { alone: [], beside: [], searches: {}, ownOrders: {} };
  for (let round = 0; round < NEIGHBOURS.rounds; round += 1) {
    results.alone.push(await loadFor(server.url, 'S1', NEIGHBOURS.seconds, dataFile));
    const searching = searchers(server.url, results.searches, results.ownOrders);
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
  ownOrders: Record<string, number>,
): { stop(): Promise<void> } {
  let running = true;
  const count = (counts: Record<string, number>, status: number) =>
    (counts[status] = (counts[status] ?? 0) + 1);
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const client = async (index: number) => {
    const search = NEIGHBOURS.searches[index % NEIGHBOURS.searches.length];
    while (running) {
      const response = await fetch(`${serviceUrl}/products?limit=25&${search}`);
      await response.arrayBuffer();
      count(statuses, response.status);
      const wait = Number(response.headers.get('retry-after') ?? 0) * 1000;
      if (wait > 0) await pause(wait);
    }
  };
  const customer = async () => {
    const headers = { authorization: `Bearer ${BENCH.customer.token}` };
    while (running) {
      const response = await fetch(`${serviceUrl}${NEIGHBOURS.ownOrders}`, { headers });
      await response.arrayBuffer();
      count(ownOrders, response.status);
      await pause(NEIGHBOURS.ownOrdersEveryMs);
    }
  };
  const clients = [...Array.from({ length: NEIGHBOURS.clients }, (_, i) => client(i)), customer()];
  return {
    stop: async () => {
      running = false;
      await Promise.all(clients);
    },
  };
}

/** The section of the scale report. */
export function renderNeighbours({ alone, beside, searches, ownOrders }: NeighbourResults): string {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const p99 = (runs: LoadResult[]) => median(runs.map((run) => run.p99Ms));
  const rps = (runs: LoadResult[]) => median(runs.map((run) => run.requestsPerSecond));
  const rounds = (runs: LoadResult[]) => runs.map((run) => run.p99Ms.toFixed(1)).join(', ');
  const tally = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([status, count]) => `${count} x ${status}`)
      .join(', ');
  return [
    `### Index-backed reads beside costly searches (S1, ${BENCH.connections} connections, ${NEIGHBOURS.rounds} rounds of ${NEIGHBOURS.seconds} s)`,
    '',
    '| S1 | p99 ms (median of rounds) | req/s | rounds |',
    '| --- | ---: | ---: | --- |',
    `| alone | ${p99(alone).toFixed(1)} | ${Math.round(rps(alone))} | ${rounds(alone)} |`,
    `| beside ${NEIGHBOURS.clients} anonymous clients searching \`${NEIGHBOURS.searches.map(decodeURIComponent).join('`, `')}\` | ${p99(beside).toFixed(1)} | ${Math.round(rps(beside))} | ${rounds(beside)} |`,
    '',
    `p99 beside them / alone: ${(p99(beside) / p99(alone)).toFixed(2)}x. The searches' answers: ${tally(searches)}. A signed-in customer's own-orders list (\`${NEIGHBOURS.ownOrders}\`) beside them: ${tally(ownOrders)}.`,
  ].join('\n');
}
