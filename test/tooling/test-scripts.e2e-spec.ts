import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pgbouncerBinary } from '../support/pgbouncer';
import { developerEnvironment } from '../support/repository-copy';

const ROOT = join(__dirname, '..', '..');

// The forms the README's "Testing" gives a team for running one spec, run as a developer runs
// them, and what each ran: the suites jest names, and nothing else.
describe('npm test scripts with a path', () => {
  // Each run starts jest and the test app; on a busy machine that takes a while.
  jest.setTimeout(5 * 60_000);

  // As a developer's shell has it: none of this jest run's own variables. The outer `npm test`
  // has built already, so the runs skip `pretest` (npm's ignore-scripts skips only the pre
  // and post scripts, never the script named).
  const env = { ...developerEnvironment(), npm_config_ignore_scripts: 'true' };
  const npm = async (args: string[], extra: NodeJS.ProcessEnv = {}) => {
    try {
      const { stdout, stderr } = await promisify(execFile)('npm', args, {
        cwd: ROOT,
        env: { ...env, ...extra },
      });
      return { status: 0, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { status: failed.code, output: failed.stdout + failed.stderr };
    }
  };
  // Jest's line per spec file, without the time it adds to a slow one.
  const suites = (output: string) =>
    (output.match(/^(PASS|FAIL) .*$/gm) ?? []).map((line) => line.replace(/ \(.*\)$/, '')).sort();

  const engines = ['e2e:postgres', 'e2e:sqlite', ...(pgbouncerBinary() ? ['e2e:pgbouncer'] : [])];

  it('npm test -- <path> runs that spec on every engine, and nothing else', async () => {
    const { status, output } = await npm(['test', '--', 'test/health.e2e-spec.ts']);
    expect(status).toBe(0);
    expect(suites(output)).toEqual(
      engines.map((engine) => `PASS ${engine} test/health.e2e-spec.ts`).sort(),
    );
  });

  it.each(engines)(
    'npm run test:%s -- <pattern> runs that spec on that engine alone',
    async (engine) => {
      const { status, output } = await npm(['run', `test:${engine}`, '--', 'health']);
      expect(status).toBe(0);
      expect(suites(output)).toEqual([`PASS ${engine} test/health.e2e-spec.ts`]);
    },
  );

  it('npm run test:unit -- <pattern> runs that unit spec alone', async () => {
    const { status, output } = await npm(['run', 'test:unit', '--', 'node-version']);
    expect(status).toBe(0);
    expect(suites(output)).toEqual(['PASS unit apps/api/src/lifecycle/node-version.spec.ts']);
  });

  it('fails at once when the path matches no spec, or the project is unknown', async () => {
    const none = await npm(['run', 'test:e2e:sqlite', '--', 'test/no-such.e2e-spec.ts']);
    expect(none.status).not.toBe(0);
    expect(none.output).toMatch(/No tests found/);
    expect(suites(none.output)).toEqual([]);

    const unknown = await npm(['test'], { TEST_PROJECTS: 'e2e:mysql' });
    expect(unknown.status).not.toBe(0);
    expect(unknown.output).toMatch(/TEST_PROJECTS: no project e2e:mysql \(known: unit, e2e:sqlite/);
  });
});
