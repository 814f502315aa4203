import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH, serverEnvironment } from './bench.config';

export type ServerKind = 'service' | 'nest' | 'nestFastify' | 'feathers' | 'platformatic' | 'raw';

// Entry files, relative to the repository root (compiled).
const ENTRIES: Record<ServerKind, string> = {
  service: 'dist/apps/api/src/main.js',
  nest: 'dist/bench/bench/baselines/nest/main.js',
  nestFastify: 'dist/bench/bench/baselines/nest/fastify.main.js',
  feathers: 'dist/bench/bench/baselines/feathers/feathers.server.js',
  // Plain JavaScript in its own folder, with its own packages (installPlatformatic).
  platformatic: 'bench/baselines/platformatic/server.mjs',
  raw: 'dist/bench/bench/baselines/raw/raw.server.js',
};

// The service is measured as production starts it: the node flags of `npm start` (the
// Dockerfile's CMD carries the same; a tooling test holds them equal), on jemalloc.
const PRODUCTION_NODE_ARGS: Record<ServerKind, string[]> = {
  service: productionNodeFlags(),
  nest: [],
  nestFastify: [],
  feathers: [],
  platformatic: [],
  raw: [],
};

function productionNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(BENCH.root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  return scripts.start.split(' ').filter((word) => word.startsWith('--'));
}

/** The allocator the image preloads (Debian's libjemalloc2), when this machine has it. */
export const JEMALLOC = 'libjemalloc.so.2';

export const jemallocInstalled: boolean = (() => {
  try {
    return execFileSync('/sbin/ldconfig', ['-p'], { encoding: 'utf8' }).includes(JEMALLOC);
  } catch {
    return false;
  }
})();

function productionEnvironment(kind: ServerKind): NodeJS.ProcessEnv {
  return kind === 'service' && jemallocInstalled ? { LD_PRELOAD: JEMALLOC } : {};
}

export interface ServerOptions {
  kind: ServerKind;
  port: number;
  processes: 1 | 2;
  extraEnv?: NodeJS.ProcessEnv;
  nodeArgs?: string[];
  /** The checkout whose build runs (default: this one). */
  root?: string;
}

/** One server under test: a process, or a node:cluster primary with its workers. */
export class RunningServer {
  private constructor(
    readonly options: ServerOptions,
    private readonly child: ChildProcess,
    readonly logFile: string,
  ) {}

  static async start(options: ServerOptions, label: string): Promise<RunningServer> {
    const logFile = join(BENCH.workDir, `${label}.log`);
    const log = openSync(logFile, 'w');
    const root = options.root ?? BENCH.root;
    const entry = join(root, ENTRIES[options.kind]);
    const script =
      options.processes === 2 ? [join(__dirname, 'cluster.launcher.js'), entry] : [entry];
    const nodeArgs = [...PRODUCTION_NODE_ARGS[options.kind], ...(options.nodeArgs ?? [])];
    const child = spawn(process.execPath, [...nodeArgs, ...script], {
      cwd: root,
      env: {
        ...serverEnvironment(options.port),
        ...productionEnvironment(options.kind),
        ...options.extraEnv,
      },
      stdio: ['ignore', log, log],
    });
    closeSync(log); // the child holds its own copy
    const server = new RunningServer(options, child, logFile);
    await server.waitUntilServing();
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  /** Resident memory of each serving process (the workers under a cluster), in MiB. */
  rssMiB(): number[] {
    const pid = this.child.pid!;
    const pids = this.options.processes === 2 ? childrenOf(pid) : [pid];
    return pids.map(rssOf);
  }

  /** CPU time the server's processes (a cluster's primary and workers) have used, in µs. */
  cpuMicros(): number {
    const pid = this.child.pid!;
    const pids = this.options.processes === 2 ? [pid, ...childrenOf(pid)] : [pid];
    return pids.map(cpuMicrosOf).reduce((sum, micros) => sum + micros, 0);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  // Ready when all its processes run and it answers; a cluster worker still starting up
  // misses at most part of the warm-up.
  private async waitUntilServing(): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) {
        throw new Error(`${this.options.kind} exited at start; see ${this.logFile}`);
      }
      const serving = this.options.processes === 2 ? childrenOf(this.child.pid!).length : 1;
      if (serving === this.options.processes && (await answers(`${this.url}/products?limit=1`)))
        return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await this.stop('SIGKILL');
    throw new Error(`${this.options.kind} did not start within 60 s; see ${this.logFile}`);
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

function childrenOf(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return text ? text.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kiB / 1024;
}

// utime and stime of /proc/{pid}/stat, in clock ticks of 10 ms.
function cpuMicrosOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
