// Writes the migration of a change to the entities for both engines, each into its folder
// (apps/api/src/database/migrations/{sqlite,postgres}). Each is diffed against a scratch
// database that this script creates, migrates with the committed migrations and throws away,
// so the migration holds exactly the new change, whatever state the local databases are in.
// PostgreSQL: a temporary schema on TEST_DATABASE_URL, else DATABASE_URL, else the local test
// server. Run after `npm run build` (the npm script does).
// Usage: npm run migration:generate -- AddReviews [sqlite|postgres]
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

const ENGINES = ['sqlite', 'postgres'];
const [name, only] = process.argv.slice(2);
if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name) || (only && !ENGINES.includes(only))) {
  console.error(
    'Usage: npm run migration:generate -- MigrationName (PascalCase) [sqlite|postgres]',
  );
  process.exit(2);
}
const postgresUrl =
  process.env.TEST_DATABASE_URL ||
  process.env.DATABASE_URL ||
  'postgres://postgres@127.0.0.1:5432/test';

for (const engine of only ? [only] : ENGINES) {
  const generate = engine === 'sqlite' ? withScratchSqlite : withScratchSchema;
  const status = await generate((database) => migrate(engine, database));
  if (status !== 0) process.exit(status);
}

// Brings the scratch database up to the committed migrations, then writes the difference.
async function migrate(engine, database) {
  const env = { ...withoutDatabase(process.env), ...database };
  const up = typeorm(['migration:run'], env, 'pipe');
  if (up.status !== 0) {
    process.stderr.write(`${up.stdout}${up.stderr}`);
    return up.status ?? 1;
  }
  const folder = `apps/api/src/database/migrations/${engine}`;
  const generated = typeorm(
    ['migration:generate', `${folder}/${name}`, '--pretty'],
    env,
    'inherit',
  );
  const searches = engine === 'postgres' ? await missingSearchIndexes(env) : [];
  if (generated.status !== 0 && searches.length === 0) return generated.status ?? 1;
  if (database.DATABASE_SCHEMA) unqualify(folder, database.DATABASE_SCHEMA);
  if (searches.length > 0) addSearchIndexes(folder, searches);
  return 0;
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

// TypeORM names the scratch schema in some statements (DROP INDEX); the service finds its
// tables through the search path, in whatever schema it is configured with.
function unqualify(folder, schema) {
  for (const file of readdirSync(folder).filter((file) => file.endsWith(`-${name}.ts`))) {
    const path = join(folder, file);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll(`"${schema}".`, ''));
  }
}

function typeorm(command, env, stdio) {
  const cli = join('node_modules', 'typeorm', 'cli.js');
  const args = [cli, ...command, '-d', join('dist', 'ormconfig.js')];
  return spawnSync(process.execPath, args, { env, stdio, encoding: 'utf8' });
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

async function withScratchSchema(work) {
  const schema = `migration_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await sql(`CREATE SCHEMA "${schema}"`);
  try {
    return await work({ DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema });
  } finally {
    await sql(`DROP SCHEMA "${schema}" CASCADE`);
  }
}

async function sql(statement) {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
