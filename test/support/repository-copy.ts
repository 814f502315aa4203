import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

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

/**
 * `npm run <script>` in `copy` as a developer runs it: `run` resolves with its output when it
 * passes; `refusal` resolves with its output (stdout, then stderr) when it fails, and throws
 * when it passes.
 */
export function npmScript(copy: () => string, script: string) {
  const run = () =>
    promisify(execFile)('npm', ['run', '--silent', script], {
      cwd: copy(),
      env: developerEnvironment(),
    });
  const refusal = async () => {
    const failed = (await run().then(
      () => undefined,
      (error: unknown) => error,
    )) as { stdout: string; stderr: string } | undefined;
    if (!failed) throw new Error(`${script} passed`);
    return `${failed.stdout}${failed.stderr}`;
  };
  return { run, refusal };
}
