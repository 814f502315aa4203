// Adds a resource:
//   npm run generate:resource -- reviews --domain ordering --attributes rating:integer:1..5
// Runs the kit's resource schematic (declaration, module, its registration in its domain, e2e
// spec) through the schematics engine the Nest CLI runs for `nest g -c
// @app/resource-kit-schematics resource` (`nest g` forwards only its own options, not
// --attributes or --to-one), then builds, writes the new resource's migration for both engines
// (no database server needed) and regenerates the typed client and docs/modules.md. All or nothing: on any
// failure the files it wrote or changed are put back.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// Where the steps write: the app (declaration, module, its domain, migrations), its specs, the
// client.
const WRITTEN_UNDER = ['apps', 'test', 'clients'];

const [name, ...options] = process.argv.slice(2);
const domain = options[options.indexOf('--domain') + 1];
if (!name || name.startsWith('-') || !options.includes('--domain')) {
  console.error(
    'Usage: npm run generate:resource -- <plural type> --domain <domain>' +
      ' [--attributes name:type[:constraint],...]' +
      ' [--to-one resource,...] [--access public-read|owned] [--on-owner-delete refuse|cascade]' +
      ' [--owned-through <one of --to-one>] [--tenant]' +
      ' [--indexed attribute,...] [--searchable attribute,...]',
  );
  process.exit(2);
}
const schematics = createRequire(import.meta.url).resolve(
  '@angular-devkit/schematics-cli/bin/schematics.js',
);
const migration = `Add${name
  .split(/[-_]/)
  .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
  .join('')}`;

const before = snapshot();
process.once('SIGINT', () => giveUp('interrupted', 130));
step('the resource schematic', process.execPath, [
  schematics,
  '@app/resource-kit-schematics:resource',
  name,
  ...options,
]);
step('the migrations', 'npm', ['run', 'migration:generate', '--', migration]);
// migration:generate built the service: the client and docs/modules.md come from that build.
step('the typed client', process.execPath, ['scripts/client-generate.mjs']);
step('the modules document', process.execPath, ['dist/apps/api/src/domains/modules-document.js']);
console.log(
  `\nWritten: the resource, its spec, its migration for both engines, the typed client,` +
    ` docs/modules.md;` +
    ` it joined the domain ${domain}.` +
    `\nNext: review the declaration (descriptions, access) and its spec, then` +
    `\n  npm run lint            (the domain's boundaries among the checks)` +
    `\n  npm run contract:check   (the new resource is an additive change)` +
    `\n  npm run contract:write   (records it as the contract)` +
    `\n  npm test`,
);

function step(title, command, args) {
  const { status, error } = spawnSync(command, args, { stdio: 'inherit' });
  if (status !== 0) giveUp(`${title} failed${error ? `: ${error.message}` : ''}`, status || 1);
}

// Puts every file under WRITTEN_UNDER back as it was and removes the ones that are new.
function giveUp(reason, status) {
  const now = snapshot();
  for (const [path, content] of before) {
    if (!now.get(path)?.equals(content)) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
  }
  for (const path of now.keys()) if (!before.has(path)) rmSync(path);
  // Folders it made (the resource's own) go too, deepest first.
  const folders = [...now.keys()].map(dirname).filter((folder) => !hasFileUnder(folder));
  for (const folder of [...new Set(folders)].sort().reverse())
    rmSync(folder, { recursive: true, force: true });
  console.error(
    `\ngenerate:resource: ${reason} (see above). Nothing is left of this run: the files it` +
      ` wrote are gone and the ones it changed are as they were. Fix the cause and run the` +
      ` same command again.`,
  );
  process.exit(status);
}

function hasFileUnder(folder) {
  return [...before.keys()].some((path) => path.startsWith(`${folder}/`));
}

function snapshot() {
  const files = new Map();
  const visit = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile()) files.set(path, readFileSync(path));
    }
  };
  for (const folder of WRITTEN_UNDER) visit(folder);
  return files;
}
