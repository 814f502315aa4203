import { cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
// What a clean clone has not: installed packages (linked instead), build output, local data,
// history.
const NOT_COPIED = new Set(['node_modules', 'dist', 'dist-dev', '.git', 'coverage', 'data']);

/** A copy of the repository as a clean clone has it, its packages linked: a team's checkout. */
export function repositoryCopy(prefix: string): string {
  const copy = mkdtempSync(join(tmpdir(), prefix));
  cpSync(ROOT, copy, {
    recursive: true,
    filter: (path) => !NOT_COPIED.has(path.slice(ROOT.length + 1).split('/')[0]),
  });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

// What jest sets in its workers (NODE_ENV=test among them), which a developer's shell has not.
const JEST_VARIABLES = [
  'TEST_DATABASE',
  'TEST_PROJECTS',
  'TEST_WORKERS',
  'JEST_WORKER_ID',
  'NODE_ENV',
];

/** The environment a developer's shell has: none of the jest run's own variables. */
export function developerEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !JEST_VARIABLES.includes(name)),
  );
}
