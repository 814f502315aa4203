// Adds a resource: npm run generate:resource -- reviews --attributes rating:integer:1..5 --to-one product
// Runs the kit's resource schematic (declaration, module, app registration, e2e spec) through
// the schematics engine the Nest CLI runs for `nest g -c @app/resource-kit-schematics resource`
// (`nest g` forwards only its own options, not --attributes or --to-one), then builds,
// writes the new resource's migration for both engines (against TEST_DATABASE_URL's
// PostgreSQL) and regenerates the typed client.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const [name, ...options] = process.argv.slice(2);
if (!name || name.startsWith('-')) {
  console.error(
    'Usage: npm run generate:resource -- <plural type> [--attributes name:type[:constraint],...] [--to-one resource,...]',
  );
  process.exit(2);
}
const schematics = createRequire(import.meta.url).resolve(
  '@angular-devkit/schematics-cli/bin/schematics.js',
);
run(process.execPath, [schematics, '@app/resource-kit-schematics:resource', name, ...options]);
const migration = `Add${name
  .split(/[-_]/)
  .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
  .join('')}`;
run('npm', ['run', 'migration:generate', '--', migration]);
// migration:generate built the service: the client is generated from that build.
run(process.execPath, ['scripts/client-generate.mjs']);
console.log(
  `\nWritten, with the typed client regenerated. Review the declaration, its spec and both` +
    ` migrations, then: npm run contract:check (the new resource is an additive change),` +
    ` npm run contract:write, npm test.`,
);

function run(command, args) {
  const { status } = spawnSync(command, args, { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
