// Five projects in one run: unit specs beside the code; the end-to-end specs three times, on
// the embedded SQLite database, on PostgreSQL, and on PostgreSQL through PgBouncer in
// transaction mode (see test/support/); and the tooling specs (test/tooling/: the generator,
// `npm run dev` and the test scripts, run as a developer runs them). TEST_PROJECTS=name,... keeps only those
// projects: the npm scripts select with it, so that a path after `--` stays a path (jest's
// --selectProjects would take it for one more project name).
// As in production (main.ts): the process runs in UTC. Workers inherit it.
process.env.TZ = 'UTC';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest reads this file as CommonJS
const { existsSync } = require('node:fs');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const { availableParallelism, loadavg } = require('node:os');

// Spec files at a time: the e2e specs mostly wait on servers, databases and processes, so more
// workers than cores keep the cores busy (jest's default is one fewer than the cores).
const WORKERS =
  Number(process.env.TEST_WORKERS) || Math.max(3, Math.ceil(availableParallelism() * 1.5));
// The workers read it (test/support/machine-load.ts): the load the suite makes itself counts from
// its first spec, before the load average shows it.
process.env.TEST_WORKERS = String(WORKERS);
// As test/support/machine-load.ts: limits stretch with the machine's load (at most 4x), at least
// by the suite's own (a busy process per worker, and the servers they start).
const LOAD = Math.min(
  4,
  Math.max(1, loadavg()[0] / availableParallelism(), (WORKERS + 1) / availableParallelism()),
);

const shared = {
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleNameMapper: {
    '^@app/resource-kit$': '<rootDir>/libs/resource-kit/src/index.ts',
    '^@app/resource-kit/(.*)$': '<rootDir>/libs/resource-kit/src/$1',
  },
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata'],
};

const e2e = (database) => ({
  ...shared,
  displayName: `e2e:${database}`,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/libs/**/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/tooling/'],
  setupFiles: [...shared.setupFiles, `<rootDir>/test/support/use-${database}.ts`],
});

// As test/support/pgbouncer.ts finds it (this CommonJS file cannot import that TypeScript).
const pgbouncer = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', process.env.PGBOUNCER_BIN].some(
  (path) => path && existsSync(path),
);
if (!pgbouncer) {
  console.warn(
    '\n*** e2e:pgbouncer SKIPPED: PgBouncer is not installed (apt-get install pgbouncer). ***\n',
  );
}
const throughPgBouncer = {
  ...e2e('pgbouncer'),
  globalSetup: '<rootDir>/test/support/pgbouncer.global-setup.ts',
  globalTeardown: '<rootDir>/test/support/pgbouncer.global-teardown.ts',
};

const projects = [
  { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,clients}/**/*.spec.ts'] },
  e2e('sqlite'),
  e2e('postgres'),
  ...(pgbouncer ? [throughPgBouncer] : []),
  { ...shared, displayName: 'tooling', testMatch: ['<rootDir>/test/tooling/*.e2e-spec.ts'] },
];

// TEST_PROJECTS: a comma-separated list of the names above; unset, all of them.
function selected(names) {
  if (!names) return projects;
  const known = ['unit', 'e2e:sqlite', 'e2e:postgres', 'e2e:pgbouncer', 'tooling'];
  const wanted = names.split(',');
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new Error(`TEST_PROJECTS: no project ${unknown.join(', ')} (known: ${known.join(', ')})`);
  }
  return projects.filter((project) => wanted.includes(project.displayName));
}

/** @type {import('jest').Config} */
module.exports = {
  // At the end: every spec that skipped tests for want of a program, or skipped them all.
  reporters: [
    'default',
    [
      '<rootDir>/test/support/skipped-specs.reporter.js',
      {
        projects: pgbouncer
          ? []
          : ['e2e:pgbouncer (every spec): PgBouncer is not installed (apt-get install pgbouncer)'],
      },
    ],
  ],
  // A global option (projects cannot set it): the e2e specs run real servers, real databases
  // and scrypt, which want room on a busy machine.
  testTimeout: Math.round(30_000 * LOAD),
  maxWorkers: WORKERS,
  projects: selected(process.env.TEST_PROJECTS),
};
