import { execFile, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { scaledMs } from '../support/machine-load';
import { waitFor } from '../support/service-process';
import { developerEnvironment, repositoryCopy } from '../support/repository-copy';

const ENTITY = join('apps', 'api', 'src', 'modules', 'products', 'product.entity.ts');
const MISSING = 'products.subtitle (column "subtitle" of "products")';

// A team's loop in `npm run dev`, in a checkout of its own: a member added to an entity, its
// migration generated while the watcher runs, a change saved again, then npm stopped by its pid.
describe('npm run dev', () => {
  // A build of the repository and the migration generator's two scratch databases.
  jest.setTimeout(5 * 60_000);
  let copy: string;
  beforeAll(() => (copy = repositoryCopy('dev-loop-')));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('names a missing migration, serves new code after migration:generate and each save, and stops with npm', async () => {
    const env = { ...developerEnvironment(), PORT: '0', LOG_LEVEL: 'warn' };
    const dev = spawn('npm', ['run', 'dev'], { cwd: copy, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    dev.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    const starts = () => [...output.matchAll(/Listening on http:\/\/localhost:(\d+)\//g)];
    // The port of the start after the `seen`th: each restart listens on a port of its own.
    const nextStart = async (seen: number) => {
      await waitFor(() => (starts().length > seen ? 'started' : ''), /started/, 120_000);
      return `http://127.0.0.1:${starts()[seen][1]}`;
    };
    try {
      await nextStart(0);

      // A member without its migration: one line naming it and the command; 503 saying so.
      const source = readFileSync(join(copy, ENTITY), 'utf8');
      writeFileSync(join(copy, ENTITY), withSubtitle(source, 'A line under the name'));
      let origin = await nextStart(1);
      await waitFor(() => output, /^Schema drift: products\.subtitle .*$/m);
      expect(output).toContain(
        `Schema drift: ${MISSING} is declared but not in the database: write its migration with npm run migration:generate -- <Name>`,
      );
      const refused = await fetch(`${origin}/products`);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual({
        error: [
          `${MISSING} has no migration yet: write it with npm run migration:generate -- <Name>, then restart`,
        ],
      });

      // Its migration, generated beside the watcher (which builds to a folder of its own):
      // the service restarts on it, runs it and serves the member.
      const generating = Date.now();
      await promisify(execFile)('npm', ['run', 'migration:generate', '--', 'AddProductSubtitle'], {
        cwd: copy,
        env: developerEnvironment(),
      });
      origin = await servesSubtitle(starts().length);
      console.log(`dev loop: migration generated and served in ${Date.now() - generating} ms`);

      // Saved again: the new description is served.
      const saving = Date.now();
      writeFileSync(join(copy, ENTITY), withSubtitle(source, 'A short line under the name'));
      await until(async () => {
        const latest = `http://127.0.0.1:${starts().at(-1)![1]}`;
        const document = await fetch(`${latest}/openapi.json`).then((response) => response.text());
        return document.includes('A short line under the name');
      });
      console.log(`dev loop: a save served in ${Date.now() - saving} ms`);
    } finally {
      // As a developer stops it: SIGTERM to npm's own pid.
      dev.kill('SIGTERM');
      await exited;
    }
    // The service went with npm: nothing listens on its port any more.
    const last = `http://127.0.0.1:${starts().at(-1)![1]}`;
    await expect(fetch(`${last}/healthz`)).rejects.toThrow();

    async function servesSubtitle(seen: number): Promise<string> {
      const origin = await nextStart(seen);
      const page = (await (await fetch(`${origin}/products?limit=1`)).json()) as {
        data: Record<string, unknown>[];
      };
      if (page.data.length > 0 && 'subtitle' in page.data[0]) return origin;
      return servesSubtitle(seen + 1);
    }
  });
});

// Polls `check` until it holds; a request to a service that is restarting counts as not yet.
async function until(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + scaledMs(timeoutMs);
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${String(check)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// The product entity with one more optional attribute.
function withSubtitle(source: string, description: string): string {
  return source.replace(
    /(\n {2}costCents!: number \| null;\n)/,
    `$1
  @Attribute({
    type: 'string',
    maxLength: 120,
    optional: true,
    nullable: true,
    description: '${description}',
  })
  subtitle!: string | null;
`,
  );
}
