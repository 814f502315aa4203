import type { AgainstResults } from './against';
import type { BenchOptions } from './options';
import {
  BASELINES,
  Measurement,
  ROUNDS,
  roundSeconds,
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
  /** Results by number of processes, then by server. */
  byProcesses: Record<1 | 2, Record<ServerKind, ServerResults>>;
  /** S1 with output validation on and off, or 'n/a' while the service ignores the switch. */
  outputValidation: { on: Measurement; off: Measurement } | 'n/a';
  soak?: LoadResult & { rssStartMiB: number; rssEndMiB: number };
  against?: AgainstResults;
}

const RSS_LIMIT_MIB = 200;
const RAW_S1_MIN = 0.75;
// The frameworks the performance targets compare the service with.
const PEERS = BASELINES.filter(({ kind }) => kind !== 'raw');

/** The run as Markdown: one table per process count, then every target with PASS or MISS. */
export function renderReport(run: RunResults): string {
  return [
    ...conditions(run.options, run.machine),
    `Each scenario: ${ROUNDS} rounds of ${roundSeconds(run.options)} s on each server after its warm-up, the servers taking turns (one process each) or one after the other (two); req/s and CPU from the rounds' totals, p50 the median round's, p99 the worst round's.`,
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
    "p50 and p99 of every server in the same rounds (p99 the worst round's), in ms: on a shared",
    "machine a tail follows the machine's load as much as the server, so the peers' are beside it.",
    '',
    latencyTable(run),
    '',
    '### Two processes (node:cluster, one port)',
    '',
    table(run, 2),
    '',
    ...soakLines(run),
    ...againstLines(run.against),
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
  const servers = run.byProcesses[processes];
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
      ...BASELINES.map(({ kind }) => times(cheaper(service, servers[kind][name]))),
    ]);
  });
  return [row(header), rule(header.length), ...rows].join('\n');
}

function latencyTable(run: RunResults): string {
  const servers = run.byProcesses[1];
  const header = [
    'scenario',
    ...['service', ...BASELINES.map(({ label }) => label)].map((label) => `${label} p50 · p99`),
  ];
  const rows = SCENARIOS.map(({ name, title }) =>
    row([
      `${name} ${title}`,
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
    `wrk, ${options.connections} keep-alive connections, ${options.warmupSeconds} s warm-up per process + ${options.measureSeconds} s per scenario; NODE_ENV=production, LOG_LEVEL=warn (pino) for every server.`,
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
      change === undefined ? '—' : `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%`,
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
      const measurement = run.byProcesses[processes].service[name];
      return measurement ? [{ ...measurement, label: `${name}, ${processes}p` }] : [];
    }),
  );
  const validation = run.outputValidation;
  const validationCost =
    validation === 'n/a'
      ? undefined
      : 1 - validation.on.requestsPerSecond / validation.off.requestsPerSecond;
  const tail = (m: Measurement) => m.p99Ms / m.p50Ms;
  const worst = measured.reduce((a, b) => (tail(b) > tail(a) ? b : a));
  const errors = measured.reduce((sum, m) => sum + m.errors, 0) + (run.soak?.errors ?? 0);
  const rss = Math.max(...measured.map((m) => m.rssMiB), run.soak?.rssEndMiB ?? 0);
  const scaling = quotient(run.byProcesses[2].service.S1, one.service.S1);
  return [
    ...(['S1', 'S2', 'S2f', 'S3'] as const).map((name) => vsBestPeer(one, name)),
    vsRaw(one),
    [
      'output validation costs <= 5% of S1',
      validationCost === undefined
        ? 'n/a (OUTPUT_VALIDATION ignored)'
        : `${(validationCost * 100).toFixed(1)}%`,
      validationCost === undefined ? undefined : validationCost <= 0.05,
    ],
    [
      'p99 <= 4x p50 in every scenario (worst)',
      `${times(tail(worst))} (${worst.label})`,
      tail(worst) <= 4,
    ],
    ['zero errors (service, every scenario and the soak)', String(errors), errors === 0],
    [
      `RSS <= ${RSS_LIMIT_MIB} MiB per process after every scenario and the soak (largest)`,
      `${fixed(rss, 0)} MiB`,
      rss <= RSS_LIMIT_MIB,
    ],
    [
      'two processes >= 1.6x one on S1',
      times(scaling),
      scaling === undefined ? undefined : scaling >= 1.6,
    ],
  ];
}

type OneProcess = RunResults['byProcesses'][1];

// Against the fastest peer framework in this run (raw node:http is the floor, not a peer).
function vsBestPeer(one: OneProcess, name: ScenarioName): Target {
  const best = PEERS.map(({ kind, label }) => ({ label, measured: one[kind][name] }))
    .filter((peer) => peer.measured !== undefined)
    .sort((a, b) => b.measured!.requestsPerSecond - a.measured!.requestsPerSecond)[0];
  const value = quotient(one.service[name], best?.measured);
  return [
    `${name} >= 1x the best peer (${best?.label ?? 'none measured'})`,
    `${times(value)} (CPU per request: ${times(cheaper(one.service[name], best?.measured))})`,
    value === undefined ? undefined : value >= 1,
  ];
}

function vsRaw(one: OneProcess): Target {
  const value = quotient(one.service.S1, one.raw.S1);
  return [
    `S1 >= ${RAW_S1_MIN}x raw node:http + pg`,
    `${times(value)} (CPU per request: ${times(cheaper(one.service.S1, one.raw.S1))})`,
    value === undefined ? undefined : value >= RAW_S1_MIN,
  ];
}

function quotient(a?: LoadResult, b?: LoadResult): number | undefined {
  return a && b ? a.requestsPerSecond / b.requestsPerSecond : undefined;
}

// How many times cheaper per request the service is than `other`, in CPU time.
function cheaper(service?: Measurement, other?: Measurement): number | undefined {
  return service && other ? other.cpuMicrosPerRequest / service.cpuMicrosPerRequest : undefined;
}

function ratio(a?: LoadResult, b?: LoadResult): string {
  return times(quotient(a, b));
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
