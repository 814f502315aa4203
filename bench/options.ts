import { BENCH } from './bench.config';

/** Command-line options of `npm run bench`: see docs/performance.md. */
export interface BenchOptions {
  warmupSeconds: number;
  /** One measured run of a comparison (`--against` and the like) or of a profile. */
  measureSeconds: number;
  /** One round of a server in the peer comparison. */
  roundSeconds: number;
  soakSeconds: number;
  soak: boolean;
  profile?: string;
  /** Another built checkout (`npm ci && npm run build` there) whose service runs beside this one. */
  against?: string;
  /** Measure the service direct against itself through PgBouncer in transaction mode. */
  pgbouncer: boolean;
  /** Measure the service without tracing against itself tracing every request to a local receiver. */
  tracing: boolean;
  /** Measure the service with an active webhook endpoint that never answers against it disabled. */
  webhooks: boolean;
  /** Measure the service on jemalloc, as production runs it, against the same build on glibc's malloc. */
  glibc: boolean;
  /** Measure the service as production starts it against the same build with these node flags. */
  nodeArgs?: readonly string[];
  /**
   * With `against`, `pgbouncer`, `tracing`, `webhooks`, `glibc` or `nodeArgs`: only that
   * comparison, this many alternating rounds, medians reported. Otherwise the rounds of the
   * peer comparison (PEER_ROUNDS when unset).
   */
  rounds?: number;
  /** The scenarios to run (`--only S1,S2`), or with `--scale` its parts (`pages`, `costly`, `writes`); all when unset. */
  only?: readonly string[];
  /** wrk's keep-alive connections per run (`--connections N`, default 50): 1 measures a lone caller's latency. */
  connections: number;
  /** `--one-process`: the peer comparison with one process each only (no two-process pass). */
  oneProcess: boolean;
  /** Only the collections at scale: 1,000,000 products on PostgreSQL, 100,000 on SQLite. */
  scale: boolean;
}

export function parseOptions(args: readonly string[]): BenchOptions {
  const quick = args.includes('--quick');
  const profileAt = args.indexOf('--profile');
  const againstAt = args.indexOf('--against');
  const roundsAt = args.indexOf('--rounds');
  const onlyAt = args.indexOf('--only');
  const nodeArgsAt = args.indexOf('--node-args');
  const connectionsAt = args.indexOf('--connections');
  return {
    warmupSeconds: quick ? 1 : 3,
    measureSeconds: quick ? 3 : 10,
    roundSeconds: quick ? 2 : 5,
    soakSeconds: 60,
    // The full run includes the soak; a quick run only with --soak.
    soak: args.includes('--soak') || (!quick && !args.includes('--no-soak')),
    profile: profileAt >= 0 ? (args[profileAt + 1] ?? 'S1') : undefined,
    against: againstAt >= 0 ? args[againstAt + 1] : undefined,
    pgbouncer: args.includes('--pgbouncer'),
    tracing: args.includes('--tracing'),
    webhooks: args.includes('--webhooks'),
    glibc: args.includes('--glibc'),
    nodeArgs: nodeArgsAt >= 0 ? args[nodeArgsAt + 1]?.split(' ').filter(Boolean) : undefined,
    rounds: roundsAt >= 0 ? Math.max(1, Number(args[roundsAt + 1]) || 1) : undefined,
    only: onlyAt >= 0 ? args[onlyAt + 1]?.split(',') : undefined,
    scale: args.includes('--scale'),
    oneProcess: args.includes('--one-process'),
    connections:
      connectionsAt >= 0
        ? Math.max(1, Number(args[connectionsAt + 1]) || BENCH.connections)
        : BENCH.connections,
  };
}
