// npm run bench [-- --quick] [-- --soak | --no-soak] [-- --profile S1] [-- --against DIR]
// [-- --scale]: see docs/performance.md.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import {
  measureAgainst,
  measureThroughPgBouncer,
  measureOnGlibcMalloc,
  measureWithNodeArgs,
  measureWithDeadEndpoint,
  measureWithTracing,
} from './against';
import { BENCH } from './bench.config';
import {
  connect,
  createSchema,
  Fixtures,
  prepareCustomers,
  resetWrites,
  seedProducts,
} from './fixtures';
import { assertSameAnswers } from './identity.check';
import { BenchOptions, parseOptions } from './options';
import { profileService } from './profile';
import { renderComparison, renderReport, RunResults } from './report';
import {
  DATA_FILE,
  measureAll,
  peerRounds,
  portOf,
  scenariosOf,
  SERVER_KINDS,
  serves,
} from './scenarios';
import { measureAtScale, renderScale } from './scale';
import { RunningServer } from './servers';
import { measureOutputValidation, soak } from './service-variants';
import { hasWrk } from './wrk.runner';

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (!(await hasWrk())) {
    console.error('The bench drives the load with wrk: apt-get install wrk (Debian, Ubuntu).');
    process.exit(1);
  }
  mkdirSync(BENCH.workDir, { recursive: true });
  installPlatformatic();
  const fixtures = await prepare();
  if (options.profile) {
    console.log(await profileService(options.profile, options));
    return;
  }
  if (options.scale) {
    await scaleOnly(options);
    return;
  }
  if (
    (options.against ||
      options.pgbouncer ||
      options.tracing ||
      options.webhooks ||
      options.glibc ||
      options.nodeArgs) &&
    options.rounds
  ) {
    await compareOnly(options);
    return;
  }
  const probes = await checkIdentity(fixtures);
  console.log(
    `Byte-identical answers from all ${SERVER_KINDS.length} servers for ${probes} sample requests (Feathers and Platformatic DB: S1, S2, S2f, S3).`,
  );
  const machineBefore = await describeMachine();
  const run: RunResults = {
    options,
    machine: '',
    byProcesses: await measureBoth(options),
    outputValidation: await measureOutputValidation(options),
    soak: options.soak ? await soak(options) : undefined,
    against: options.against ? await measureAgainst(options) : undefined,
    deadEndpoint: await deadEndpointOnS3(options),
  };
  run.machine = `${machineBefore}; load average after: ${loadAverage()}`;
  const report = renderReport(run);
  writeFileSync(join(BENCH.workDir, 'report.md'), report);
  console.log(`\n\n${report}\nServer logs and this report: ${BENCH.workDir}`);
}

// The Platformatic DB baseline brings its own packages (about 190 MB, which npm test does
// not need): installed from its lockfile on the bench's first run.
function installPlatformatic(): void {
  const folder = join(BENCH.root, 'bench', 'baselines', 'platformatic');
  if (existsSync(join(folder, 'node_modules'))) return;
  console.log('Installing the Platformatic DB baseline (npm ci, once)...');
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: folder,
    stdio: 'inherit',
  });
  if (npm.status !== 0) throw new Error(`npm ci in ${folder} failed`);
}

// The service creates its tables (migrations run at start); the rows are loaded in SQL.
async function prepare(): Promise<Fixtures> {
  const sql = await connect();
  try {
    await createSchema(sql);
    const service = await RunningServer.start(
      { kind: 'service', port: portOf('service'), processes: 1 },
      'setup',
    );
    try {
      const started = Date.now();
      if (await seedProducts(sql)) {
        console.log(`Loaded ${BENCH.products} products in ${Date.now() - started} ms.`);
      }
      await resetWrites(sql);
      const fixtures = await prepareCustomers(sql, service.url);
      writeDataFile(fixtures);
      return fixtures;
    } finally {
      await service.stop();
    }
  } finally {
    await sql.end();
  }
}

function writeDataFile(fixtures: Fixtures): void {
  const lines = [
    `admin ${BENCH.admin.token}`,
    ...fixtures.productIds.map((id) => `product ${id}`),
    ...fixtures.customers.map((c) => `customer ${c.userId} ${c.token} ${c.productIds.join(',')}`),
  ];
  writeFileSync(DATA_FILE, lines.join('\n') + '\n');
}

async function checkIdentity(fixtures: Fixtures): Promise<number> {
  const servers = await Promise.all(
    SERVER_KINDS.map((kind) =>
      RunningServer.start({ kind, port: portOf(kind), processes: 1 }, `${kind}-identity`),
    ),
  );
  try {
    return await assertSameAnswers(
      servers.map((server) => ({
        url: server.url,
        serves: (scenario) => serves(server.options.kind, scenario),
      })),
      fixtures,
    );
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

// `--against DIR`, `--pgbouncer`, `--tracing`, `--webhooks`, `--glibc` or `--node-args`, with
// `--rounds N`: that comparison alone.
async function compareOnly(options: BenchOptions): Promise<void> {
  const machine = await describeMachine();
  const against = options.pgbouncer
    ? await measureThroughPgBouncer(options)
    : options.tracing
      ? await measureWithTracing(options)
      : options.webhooks
        ? await measureWithDeadEndpoint(options)
        : options.glibc
          ? await measureOnGlibcMalloc(options)
          : options.nodeArgs
            ? await measureWithNodeArgs(options)
            : await measureAgainst(options);
  const report = renderComparison(
    options,
    `${machine}; load average after: ${loadAverage()}`,
    against,
  );
  writeFileSync(join(BENCH.workDir, 'report.md'), report);
  console.log(`\n${report}`);
}

// SPEC 1.17's promise, a dead endpoint slows no write, measured with the peers: S3 with an
// active endpoint that never answers against S3 with it disabled, as many rounds.
async function deadEndpointOnS3(options: BenchOptions): Promise<RunResults['deadEndpoint']> {
  if (!scenariosOf(options).some(({ name }) => name === 'S3')) return undefined;
  return measureWithDeadEndpoint({ ...options, only: ['S3'], rounds: peerRounds(options) });
}

async function scaleOnly(options: BenchOptions): Promise<void> {
  const machine = await describeMachine();
  const table = renderScale(await measureAtScale(options.only));
  const report = `${machine}; load average after: ${loadAverage()}\n\n${table}\n`;
  writeFileSync(join(BENCH.workDir, 'report.md'), report);
  console.log(`\n${report}`);
}

async function measureBoth(options: BenchOptions): Promise<RunResults['byProcesses']> {
  const byProcesses = {} as RunResults['byProcesses'];
  for (const processes of options.oneProcess ? ([1] as const) : ([1, 2] as const)) {
    process.stdout.write(`${processes} process${processes === 2 ? 'es' : ''}:`);
    byProcesses[processes] = await measureAll(processes, options);
    process.stdout.write('\n');
  }
  return byProcesses;
}

async function describeMachine(): Promise<string> {
  const sql = await connect();
  try {
    const { rows } = await sql.query<{ server_version: string }>('SHOW server_version');
    const memory = (totalmem() / 2 ** 30).toFixed(1);
    return [
      `${availableParallelism()} cores, ${memory} GiB, Node ${process.versions.node}, PostgreSQL ${rows[0].server_version}`,
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load average before: ${loadAverage()}`,
    ].join('; ');
  } finally {
    await sql.end();
  }
}

// Other work on the machine shows here: the 1-minute load average against the cores.
function loadAverage(): string {
  return loadavg()[0].toFixed(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
