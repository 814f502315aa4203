import type { AgainstResults } from './against';
import type { BenchOptions } from './options';
import {
  BASELINES,
  Measurement,
  median,
  peerRounds,
  SCENARIOS,
  ScenarioName,
  SERVER_KINDS,
  ServerResults,
} from './scenarios';
import { JEMALLOC, jemallocInstalled, type ServerKind } from './servers';
import { HOLD_MS, type LoadResult } from './wrk.runner';

export interface RunResults {
  options: BenchOptions;
  /** Cores, memory, Node, PostgreSQL, date and load average: the conditions of the run. */
  machine: string;
  /** Results by number of processes (two unless `--one-process`), then by server. */
  byProcesses: { 1: Record<ServerKind, ServerResults>; 2?: Record<ServerKind, ServerResults> };
  /** S1 with output validation on and off, or 'n/a' while the service ignores the switch. */
  outputValidation: { on: Measurement; off: Measurement } | 'n/a';
  soak?: LoadResult & { rssStartMiB: number; rssEndMiB: number };
  against?: AgainstResults;
  /** S3 with an active webhook endpoint that never answers against S3 with it disabled. */
  deadEndpoint?: AgainstResults;
}

const RSS_LIMIT_MIB = 200;
const PEER_MIN = 1.2;
const RAW_MIN: Partial<Record<ScenarioName, number>> = { S1: 0.9, S2: 0.8 };
const TAIL_MAX = 3;
const DEAD_ENDPOINT_MAX_CHANGE = 0.05;
// The frameworks the performance targets compare the service with.
const PEERS = BASELINES.filter(({ kind }) => kind !== 'raw');

/** The run as Markdown: one table per process count, then every target with PASS or MISS. */
export function renderReport(run: RunResults): string {
  return [
    ...conditions(run.options, run.machine),
    `Each scenario: ${peerRounds(run.options)} rounds of ${run.options.roundSeconds} s on each server after its warm-up, the servers in a new random order each round (one process each) or one after the other (two). req/s and CPU from the rounds' totals; p50 and p99 the medians of the rounds'. A ratio is the median of the per-round ratios, with their range in brackets.`,
    '',
    '### One process',
    '',
    table(run, 1),
    '',
    '#### CPU time per request (one process)',
    '',
    'The same runs, as the CPU time each server process used per request: what a request costs',
    "it, whatever else was running. The ratio is the other server's cost over the service's,",
    'so it reads like the req/s ratio (above 1: the service is the cheaper).',
    '',
    cpuTable(run),
    '',
    '#### Latency (one process)',
    '',
    "p50 and p99 of every server in the same rounds (the medians of the rounds'), in ms, and the",
    "service's p99 over p50 (the median round's, the range in brackets): on a shared machine a",
    "tail follows the machine's load as much as the server, so the peers' are beside it.",
    '',
    latencyTable(run),
    '',
    ...(run.byProcesses[2]
      ? ['### Two processes (node:cluster, one port)', '', table(run, 2), '']
      : []),
    ...soakLines(run),
    ...againstLines(run.against),
    ...againstLines(run.deadEndpoint),
    '### Targets',
    '',
    '| target | measured | |',
    '| --- | ---: | --- |',
    ...targets(run).map(
      ([name, value, pass]) =>
        `| ${name} | ${value} | ${pass === undefined ? 'n/a' : pass ? 'PASS' : 'MISS'} |`,
    ),
    '',
  ].join('\n');
}

function table(run: RunResults, processes: 1 | 2): string {
  const servers = run.byProcesses[processes]!;
  const header = [
    'scenario',
    'service req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'RSS MiB',
    ...BASELINES.map(({ label }) => `${label} req/s`),
    ...BASELINES.map(({ label }) => `vs ${label}`),
    ...(processes === 2 ? ['vs one process'] : []),
  ];
  const rows = SCENARIOS.map(({ name, title }) => {
    const service = servers.service[name];
    const cells = [
      `${name} ${title}`,
      rate(service),
      fixed(service?.p50Ms),
      fixed(service?.p99Ms),
      String(service?.errors ?? '—'),
      fixed(service?.rssMiB, 0),
      ...BASELINES.map(({ kind }) => rate(servers[kind][name])),
      ...BASELINES.map(({ kind }) => ratio(service, servers[kind][name])),
    ];
    if (processes === 2) cells.push(ratio(service, run.byProcesses[1].service[name]));
    return row(cells);
  });
  const rss = SERVER_KINDS.map((kind) => `${kind} ${fixed(maxRss(servers[kind]), 0)} MiB`);
  const errors = SERVER_KINDS.map((kind) => `${kind} ${totalErrors(servers[kind])}`);
  return [
    row(header),
    rule(header.length),
    ...rows,
    '',
    `RSS per process after the load (largest): ${rss.join(', ')}`,
    `Errors in all scenarios: ${errors.join(', ')}`,
  ].join('\n');
}

function cpuTable(run: RunResults): string {
  const servers = run.byProcesses[1];
  const header = [
    'scenario',
    'service µs/req',
    ...BASELINES.map(({ label }) => `${label} µs/req`),
    ...BASELINES.map(({ label }) => `vs ${label}`),
  ];
  const rows = SCENARIOS.map(({ name, title }) => {
    const service = servers.service[name];
    return row([
      `${name} ${title}`,
      fixed(service?.cpuMicrosPerRequest, 0),
      ...BASELINES.map(({ kind }) => fixed(servers[kind][name]?.cpuMicrosPerRequest, 0)),
      ...BASELINES.map(({ kind }) => spread(cheaper(service, servers[kind][name]))),
    ]);
  });
  return [row(header), rule(header.length), ...rows].join('\n');
}

function latencyTable(run: RunResults): string {
  const servers = run.byProcesses[1];
  const header = [
    'scenario',
    'service p99 / p50',
    ...['service', ...BASELINES.map(({ label }) => label)].map((label) => `${label} p50 · p99`),
  ];
  const rows = SCENARIOS.map(({ name, title }) =>
    row([
      `${name} ${title}`,
      spread(tailOf(servers.service[name])),
      ...SERVER_KINDS.map((kind) => {
        const measured = servers[kind][name];
        return measured ? `${fixed(measured.p50Ms)} · ${fixed(measured.p99Ms)}` : '—';
      }),
    ]),
  );
  return [row(header), rule(header.length), ...rows].join('\n');
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

// A Markdown table rule: the first column left, the figures right.
function rule(columns: number): string {
  return '| --- ' + '| ---: '.repeat(columns - 1) + '|';
}

function soakLines(run: RunResults): string[] {
  if (!run.soak) return [];
  const { soak, options } = run;
  return [
    `### Soak (service, one process, ${options.soakSeconds} s, 50 clients: product and cart reads, cart items created and deleted, checkouts)`,
    '',
    `${Math.round(soak.requestsPerSecond)} req/s, p50 ${fixed(soak.p50Ms)} ms, p99 ${fixed(soak.p99Ms)} ms, ${soak.errors} errors, RSS ${fixed(soak.rssStartMiB, 0)} → ${fixed(soak.rssEndMiB, 0)} MiB`,
    '',
  ];
}

/** `--against DIR --rounds N`: the comparison alone. */
export function renderComparison(
  options: BenchOptions,
  machine: string,
  against: AgainstResults,
): string {
  return [...conditions(options, machine), '', ...againstLines(against)].join('\n');
}

function conditions(options: BenchOptions, machine: string): string[] {
  return [
    'Every figure compares servers measured in this same run: the machine is shared and',
    'noisy, so compare ratios within one run only, never req/s across runs.',
    `wrk, ${options.connections} keep-alive connections, ${options.warmupSeconds} s warm-up per process; ${options.measureSeconds} s per side and round in a comparison (--against and the like); NODE_ENV=production, LOG_LEVEL=warn (pino) for every server.`,
    `Each wrk run holds its connections' first requests ${HOLD_MS} ms, until the server has accepted them all (node accepts one connection per turn of its event loop); req/s and latency count the time after.`,
    jemallocInstalled
      ? `The service on jemalloc (${JEMALLOC} preloaded), as the image runs it.`
      : `The service on glibc's malloc: ${JEMALLOC} (Debian's libjemalloc2), which the image preloads, is not installed here.`,
    machine,
  ];
}

function againstLines(against: AgainstResults | undefined): string[] {
  if (!against) return [];
  const { other, current, previous, rounds, cpuChange } = against;
  const rows = SCENARIOS.map(({ name, title }) => {
    const [now, before] = [current[name], previous[name]];
    const change = cpuChange[name];
    const cells = [
      `${name} ${title}`,
      rate(now),
      rate(before),
      ratio(now, before),
      fixed(now?.cpuMicrosPerRequest, 0),
      fixed(before?.cpuMicrosPerRequest, 0),
      change === undefined ? '—' : percent(change),
      fixed(now?.p50Ms),
      fixed(before?.p50Ms),
      fixed(now?.p99Ms),
      fixed(before?.p99Ms),
      fixed(now?.rssMiB, 0),
      fixed(before?.rssMiB, 0),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    `### Against ${other} (one process each, measured alternately${rounds > 1 ? `; the median of ${rounds} rounds` : ''})`,
    '',
    '| scenario | this req/s | that req/s | ratio | this µs/req | that µs/req | CPU per request | this p50 ms | that p50 ms | this p99 ms | that p99 ms | this RSS MiB (max) | that RSS MiB (max) |',
    rule(13),
    ...rows,
    '',
  ];
}

type Target = [name: string, measured: string, pass: boolean | undefined];

function targets(run: RunResults): Target[] {
  const one = run.byProcesses[1];
  const measured = ([1, 2] as const).flatMap((processes) =>
    SCENARIOS.flatMap(({ name }) => {
      const measurement = run.byProcesses[processes]?.service[name];
      return measurement ? [{ ...measurement, label: `${name}, ${processes}p` }] : [];
    }),
  );
  const validation = run.outputValidation;
  const validationCost =
    validation === 'n/a'
      ? undefined
      : 1 - validation.on.requestsPerSecond / validation.off.requestsPerSecond;
  const errors = measured.reduce((sum, m) => sum + m.errors, 0) + (run.soak?.errors ?? 0);
  const rss = Math.max(...measured.map((m) => m.rssMiB), run.soak?.rssEndMiB ?? 0);
  const scaling = quotient(run.byProcesses[2]?.service.S1, one.service.S1);
  return [
    ...(['S1', 'S2', 'S2f', 'S3'] as const).map((name) => vsBestPeer(one, name)),
    ...(['S1', 'S2'] as const).map((name) => vsRaw(one, name)),
    tailTarget(one),
    deadEndpointTarget(run.deadEndpoint),
    [
      `RSS <= ${RSS_LIMIT_MIB} MiB per process after every scenario and the soak (largest)`,
      `${fixed(rss, 0)} MiB`,
      rss <= RSS_LIMIT_MIB,
    ],
    ['zero errors (service, every scenario and the soak)', String(errors), errors === 0],
    [
      'output validation costs <= 5% of S1',
      validationCost === undefined
        ? 'n/a (OUTPUT_VALIDATION ignored)'
        : `${(validationCost * 100).toFixed(1)}%`,
      validationCost === undefined ? undefined : validationCost <= 0.05,
    ],
    [
      'two processes >= 1.6x one on S1',
      times(scaling),
      scaling === undefined ? undefined : scaling >= 1.6,
    ],
  ];
}

type OneProcess = RunResults['byProcesses'][1];

// Against the peer framework the service leads least in this run, by the median of the
// per-round req/s ratios (raw node:http is the floor, not a peer).
function vsBestPeer(one: OneProcess, name: ScenarioName): Target {
  const service = one.service[name];
  const best = PEERS.map(({ kind, label }) => ({
    kind,
    label,
    value: perRound(service, one[kind][name]),
  }))
    .filter((peer) => peer.value !== undefined)
    .sort((a, b) => a.value!.median - b.value!.median)[0];
  const value = best?.value;
  const cost = best && cheaper(service, one[best.kind][name]);
  return [
    `${name} >= ${PEER_MIN}x the best peer (${best?.label ?? 'none measured'})`,
    `${spread(value)} (CPU per request: ${spread(cost)})`,
    value === undefined ? undefined : value.median >= PEER_MIN,
  ];
}

function vsRaw(one: OneProcess, name: 'S1' | 'S2'): Target {
  const value = perRound(one.service[name], one.raw[name]);
  const least = RAW_MIN[name]!;
  return [
    `${name} >= ${least}x raw node:http + pg`,
    `${spread(value)} (CPU per request: ${spread(cheaper(one.service[name], one.raw[name]))})`,
    value === undefined ? undefined : value.median >= least,
  ];
}

// The median round's tail of each scenario, one process; the worst scenario decides.
function tailTarget(one: OneProcess): Target {
  const tails = SCENARIOS.flatMap(({ name }) => {
    const tail = tailOf(one.service[name]);
    return tail ? [{ name, tail }] : [];
  });
  if (tails.length === 0) return [`p99 <= ${TAIL_MAX}x p50 in every scenario`, '—', undefined];
  const worst = tails.reduce((a, b) => (b.tail.median > a.tail.median ? b : a));
  return [
    `p99 <= ${TAIL_MAX}x p50 in every scenario, one process (worst)`,
    `${spread(worst.tail)} (${worst.name})`,
    worst.tail.median <= TAIL_MAX,
  ];
}

function deadEndpointTarget(against: AgainstResults | undefined): Target {
  const change = against?.cpuChange.S3;
  return [
    `S3 with a webhook endpoint that never answers: CPU per request within ${DEAD_ENDPOINT_MAX_CHANGE * 100}% of S3 without`,
    change === undefined ? 'not measured' : percent(change),
    change === undefined ? undefined : change <= DEAD_ENDPOINT_MAX_CHANGE,
  ];
}

function quotient(a?: LoadResult, b?: LoadResult): number | undefined {
  return a && b ? a.requestsPerSecond / b.requestsPerSecond : undefined;
}

/** A ratio's median over the rounds, with its lowest and highest round. */
interface Spread {
  median: number;
  low: number;
  high: number;
}

// The median of `of` over the rounds a and b ran side by side; the ratio of the wholes when
// they have no rounds to pair.
function perRound(
  a: Measurement | undefined,
  b: Measurement | undefined,
  of: (a: Measurement, b: Measurement) => number = (x, y) =>
    x.requestsPerSecond / y.requestsPerSecond,
): Spread | undefined {
  if (!a || !b) return undefined;
  const paired = a.rounds && b.rounds && a.rounds.length === b.rounds.length;
  const values = paired ? a.rounds!.map((round, at) => of(round, b.rounds![at])) : [of(a, b)];
  return {
    median: median(values, (value) => value),
    low: Math.min(...values),
    high: Math.max(...values),
  };
}

// How many times cheaper per request the service is than `other`, in CPU time.
function cheaper(service?: Measurement, other?: Measurement): Spread | undefined {
  return perRound(service, other, (a, b) => b.cpuMicrosPerRequest / a.cpuMicrosPerRequest);
}

// p99 over p50, round by round.
function tailOf(measured?: Measurement): Spread | undefined {
  return perRound(measured, measured, (round) => round.p99Ms / round.p50Ms);
}

function spread(value?: Spread): string {
  if (!value) return '—';
  const range =
    value.low === value.high ? '' : ` (${value.low.toFixed(2)}–${value.high.toFixed(2)})`;
  return `${times(value.median)}${range}`;
}

function percent(change: number): string {
  return `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%`;
}

function ratio(a?: Measurement, b?: Measurement): string {
  return spread(perRound(a, b));
}

function times(value?: number): string {
  return value === undefined ? '—' : `${value.toFixed(2)}x`;
}

function rate(result?: LoadResult): string {
  return result ? Math.round(result.requestsPerSecond).toLocaleString('en') : '—';
}

function fixed(value: number | undefined, digits = 1): string {
  return value === undefined ? '—' : value.toFixed(digits);
}

function totalErrors(results: ServerResults): number {
  return Object.values(results).reduce((sum, m) => sum + m.errors, 0);
}

function maxRss(results: ServerResults): number | undefined {
  const values = Object.values(results).map((m) => m.rssMiB);
  return values.length > 0 ? Math.max(...values) : undefined;
}
