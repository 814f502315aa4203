import type { AgainstResults } from './against';
import type { BenchOptions } from './options';
import { Measurement, SCENARIOS, ScenarioName, ServerResults } from './scenarios';
import type { ServerKind } from './servers';
import type { LoadResult } from './wrk.runner';

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

const RSS_LIMIT_MIB = 250;

/** The run as Markdown: one table per process count, then every target with PASS or MISS. */
export function renderReport(run: RunResults): string {
  return [
    ...conditions(run.options, run.machine),
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
  const header =
    '| scenario | service req/s | p50 ms | p99 ms | errors | RSS MiB | Nest req/s | Feathers req/s | raw req/s | vs Nest | vs Feathers | vs raw |' +
    (processes === 2 ? ' vs one process |' : '');
  const rule = '| --- ' + '| ---: '.repeat(processes === 2 ? 12 : 11) + '|';
  const rows = SCENARIOS.map(({ name, title }) => {
    const service = servers.service[name];
    const { nest, feathers, raw } = {
      nest: servers.nest[name],
      feathers: servers.feathers[name],
      raw: servers.raw[name],
    };
    const cells = [
      `${name} ${title}`,
      rate(service),
      fixed(service?.p50Ms),
      fixed(service?.p99Ms),
      String(service?.errors ?? '—'),
      fixed(service?.rssMiB, 0),
      rate(nest),
      rate(feathers),
      rate(raw),
      ratio(service, nest),
      ratio(service, feathers),
      ratio(service, raw),
    ];
    if (processes === 2) cells.push(ratio(service, run.byProcesses[1].service[name]));
    return `| ${cells.join(' | ')} |`;
  });
  const kinds = ['service', 'nest', 'feathers', 'raw'] as const;
  const rss = kinds.map((kind) => `${kind} ${fixed(maxRss(servers[kind]), 0)} MiB`);
  const errors = kinds.map((kind) => `${kind} ${totalErrors(servers[kind])}`);
  return [
    header,
    rule,
    ...rows,
    '',
    `RSS per process after the load (largest): ${rss.join(', ')}`,
    `Errors in all scenarios: ${errors.join(', ')}`,
  ].join('\n');
}

function cpuTable(run: RunResults): string {
  const servers = run.byProcesses[1];
  const rows = SCENARIOS.map(({ name, title }) => {
    const [service, nest, feathers, raw] = [
      servers.service[name],
      servers.nest[name],
      servers.feathers[name],
      servers.raw[name],
    ];
    const cells = [
      `${name} ${title}`,
      fixed(service?.cpuMicrosPerRequest, 0),
      fixed(nest?.cpuMicrosPerRequest, 0),
      fixed(feathers?.cpuMicrosPerRequest, 0),
      fixed(raw?.cpuMicrosPerRequest, 0),
      times(cheaper(service, nest)),
      times(cheaper(service, feathers)),
      times(cheaper(service, raw)),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    '| scenario | service µs/req | Nest µs/req | Feathers µs/req | raw µs/req | vs Nest | vs Feathers | vs raw |',
    '| --- ' + '| ---: '.repeat(7) + '|',
    ...rows,
  ].join('\n');
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
    `wrk, 50 keep-alive connections, ${options.warmupSeconds} s warm-up + ${options.measureSeconds} s per scenario; NODE_ENV=production, LOG_LEVEL=warn (pino) for every server.`,
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
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    `### Against ${other} (one process each, measured alternately${rounds > 1 ? `; the median of ${rounds} rounds` : ''})`,
    '',
    '| scenario | this req/s | that req/s | ratio | this µs/req | that µs/req | CPU per request |',
    '| --- ' + '| ---: '.repeat(6) + '|',
    ...rows,
    '',
  ];
}

type Target = [name: string, measured: string, pass: boolean | undefined];

function targets(run: RunResults): Target[] {
  const one = run.byProcesses[1];
  const vs = (name: ScenarioName, base: ServerResults, min: number, label: string): Target => {
    const value = quotient(one.service[name], base[name]);
    const cpu = cheaper(one.service[name], base[name]);
    return [
      `${name} >= ${min}x ${label}`,
      `${times(value)} (CPU per request: ${times(cpu)})`,
      value === undefined ? undefined : value >= min,
    ];
  };
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
    vs('S1', one.nest, 1.3, 'hand-written Nest'),
    vs('S2', one.nest, 1.3, 'hand-written Nest'),
    vs('S2f', one.nest, 1.3, 'hand-written Nest'),
    vs('S3', one.nest, 1.0, 'hand-written Nest'),
    vs('S1', one.feathers, 1.0, 'Feathers 5 + Knex'),
    vs('S2', one.feathers, 1.0, 'Feathers 5 + Knex'),
    vs('S2f', one.feathers, 1.0, 'Feathers 5 + Knex'),
    vs('S3', one.feathers, 1.0, 'Feathers 5 + Knex'),
    vs('S1', one.raw, 0.5, 'raw node:http + pg'),
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
