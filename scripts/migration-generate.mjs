// Writes the migration of a change to the entities for both engines, each into its folder
// (apps/api/src/database/migrations/{sqlite,postgres}). Each is diffed against a scratch
// database that this script creates, migrates with the committed migrations and throws away,
// so the migration holds exactly the new change, whatever state the local databases are in.
// No database server is needed: SQLite is a scratch file, PostgreSQL an embedded PGlite served
// on a loopback port for the TypeORM CLI. The PostgreSQL one is then made safe to run under
// live traffic (apps/api/src/database/online-migration.ts). Run after `npm run build` (the npm
// script does).
// Usage: npm run migration:generate -- AddReviews [sqlite|postgres]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const ENGINES = ['sqlite', 'postgres'];
const [name, only] = process.argv.slice(2);
if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name) || (only && !ENGINES.includes(only))) {
  console.error(
    'Usage: npm run migration:generate -- MigrationName (PascalCase) [sqlite|postgres]',
  );
  process.exit(2);
}

for (const engine of only ? [only] : ENGINES) {
  const generate = engine === 'sqlite' ? withScratchSqlite : withScratchPostgres;
  const status = await generate((database) => migrate(engine, database));
  if (status !== 0) process.exit(status);
}

// Brings the scratch database up to the committed migrations, then writes the difference.
async function migrate(engine, database) {
  const env = { ...withoutDatabase(process.env), ...database };
  const up = await typeorm(['migration:run'], env, 'pipe');
  if (up.status !== 0) {
    process.stderr.write(up.output);
    return up.status;
  }
  const folder = `apps/api/src/database/migrations/${engine}`;
  const generated = await typeorm(
    ['migration:generate', `${folder}/${name}`, '--pretty'],
    env,
    'inherit',
  );
  const searches = engine === 'postgres' ? await missingSearchIndexes(env) : [];
  if (generated.status !== 0 && searches.length === 0) return generated.status;
  if (engine === 'postgres') unqualify(folder);
  if (searches.length > 0) addSearchIndexes(folder, searches);
  if (engine === 'postgres') await goOnline(folder);
  return 0;
}

// What would block writes to a live table goes online: NOT VALID constraints, validated and
// indexed concurrently in a follow-up migration (apps/api/src/database/online-migration.ts).
async function goOnline(folder) {
  const { onlineMigration } = await import(
    resolve('dist/apps/api/src/database/online-migration.js')
  );
  const file = readdirSync(folder).find((file) => file.endsWith(`-${name}.ts`));
  if (!file) return;
  const path = join(folder, file);
  const timestamp = Number(file.split('-')[0]) + 1;
  const { source, online } = onlineMigration(readFileSync(path, 'utf8'), { name, timestamp });
  if (!online) return;
  writeFileSync(path, source);
  writeFileSync(join(folder, `${timestamp}-${name}Online.ts`), online);
}

// The trigram indexes of `searchable` attributes are an expression TypeORM cannot declare:
// the kit lists them, and those the migrated scratch schema lacks join the migration.
async function missingSearchIndexes(env) {
  Object.assign(process.env, env);
  const kit = await import(resolve('dist/libs/resource-kit/src/index.js'));
  const { default: dataSource } = (await import(resolve('dist/ormconfig.js'))).default;
  await dataSource.initialize();
  try {
    const rows = await dataSource.query(
      'SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()',
    );
    const existing = new Set(rows.map((row) => row.indexname));
    return kit
      .declaredSearchIndexes(dataSource)
      .filter((index) => !existing.has(index.name))
      .map((index) => kit.searchIndexMigration(index));
  } finally {
    await dataSource.destroy();
  }
}

// Into the migration TypeORM wrote, or a new one when the indexes are the only change.
function addSearchIndexes(folder, searches) {
  const queries = (statements) =>
    statements.map((statement) => `        await queryRunner.query(\`${statement}\`);\n`).join('');
  const up = queries([...new Set(searches.flatMap((search) => search.up))]);
  const down = queries(searches.toReversed().flatMap((search) => search.down));
  const existing = readdirSync(folder).find((file) => file.endsWith(`-${name}.ts`));
  const path = join(folder, existing ?? `${Date.now()}-${name}.ts`);
  const source = existing ? readFileSync(path, 'utf8') : emptyMigration(path);
  const downStart = 'public async down(queryRunner: QueryRunner): Promise<void> {\n';
  const upEnd = source.indexOf('    }\n', source.indexOf('public async up('));
  const withUp = source.slice(0, upEnd) + up + source.slice(upEnd);
  const at = withUp.indexOf(downStart) + downStart.length;
  writeFileSync(path, withUp.slice(0, at) + down + withUp.slice(at));
}

function emptyMigration(path) {
  const className = `${name}${path.split('/').pop().split('-')[0]}`;
  return `import { MigrationInterface, QueryRunner } from "typeorm";

export class ${className} implements MigrationInterface {
    name = '${className}'

    public async up(queryRunner: QueryRunner): Promise<void> {
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
    }

}
`;
}

// TypeORM names the scratch database's schema in some statements (DROP INDEX); the service
// finds its tables through the search path, in whatever schema it is configured with.
function unqualify(folder) {
  for (const file of readdirSync(folder).filter((file) => file.endsWith(`-${name}.ts`))) {
    const path = join(folder, file);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll('"public".', ''));
  }
}

// Asynchronous: this process serves the scratch PGlite while the CLI talks to it.
async function typeorm(command, env, stdio) {
  const cli = join('node_modules', 'typeorm', 'cli.js');
  const args = [cli, ...command, '-d', join('dist', 'ormconfig.js')];
  const child = spawn(process.execPath, args, { env, stdio });
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (chunk) => (output += chunk));
  const [code] = await once(child, 'close');
  return { status: code ?? 1, output };
}

// The scratch database replaces whichever one the environment selects.
function withoutDatabase(env) {
  const rest = { ...env };
  for (const name of ['DATABASE_URL', 'DATABASE_SCHEMA', 'SQLITE_PATH']) delete rest[name];
  return rest;
}

async function withScratchSqlite(work) {
  const folder = mkdtempSync(join(tmpdir(), 'migration-'));
  try {
    return await work({ SQLITE_PATH: join(folder, 'scratch.sqlite') });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// An in-memory PostgreSQL (PGlite, with the pg_trgm extension the search indexes use) on a
// free loopback port, so that the TypeORM CLI connects to it as to any server.
async function withScratchPostgres(work) {
  const db = await PGlite.create({ extensions: { pg_trgm } });
  // The CLI's pool opens a few connections; PGlite runs their statements one at a time.
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 8 });
  await server.start();
  try {
    return await work({ DATABASE_URL: `postgres://postgres@${server.getServerConn()}/postgres` });
  } finally {
    await server.stop();
    await db.close();
  }
}
