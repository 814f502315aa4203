// Writes a migration for the engine the environment selects (DATABASE_URL set: PostgreSQL,
// unset: SQLite) into that engine's folder. Usage: npm run migration:generate -- AddProducts
import { spawnSync } from 'node:child_process';

const name = process.argv[2];
if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name)) {
  console.error('Usage: npm run migration:generate -- MigrationName (PascalCase)');
  process.exit(2);
}
const engine = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
const target = `apps/api/src/database/migrations/${engine}/${name}`;
const cli = ['typeorm', 'migration:generate', target, '-d', 'dist/ormconfig.js', '--pretty'];
const { status } = spawnSync('npx', ['--no-install', ...cli], { stdio: 'inherit' });
process.exit(status ?? 1);
