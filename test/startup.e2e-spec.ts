import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { startService, SERVICE_MAIN, waitFor } from './support/service-process';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { scaledMs } from './support/machine-load';

const SEED = join(SERVICE_MAIN, '..', 'seed.js');
// Each test starts a process or two; on a busy machine a start takes seconds.
jest.setTimeout(scaledMs(30_000));

// A node binary other than the bundled one, on a version the service does not support.
function unsupportedNode(): string | undefined {
  const candidates = [
    ...(process.env.PATH ?? '').split(delimiter).map((folder) => join(folder, 'node')),
    '/usr/bin/node',
    '/usr/local/bin/node',
  ];
  const bundled = realpathSync(process.execPath);
  return candidates.find((path) => {
    if (!existsSync(path) || realpathSync(path) === bundled) return false;
    const [major, minor] = execFileSync(path, ['-p', 'process.versions.node'])
      .toString()
      .split('.')
      .map(Number);
    return major < 24 || (major === 24 && minor < 9);
  });
}

const otherNode = unsupportedNode();
if (!otherNode) {
  console.warn('SKIPPED: no node binary older than 24.9 besides the bundled one on this machine');
}
const withOtherNode = otherNode ? it : it.skip;

describe('service process', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('starts in development, prints its URL and an admin token as plain lines, and exits 0 on SIGTERM', async () => {
    const checkout = mkdtempSync(join(tmpdir(), 'checkout-'));
    const start = () =>
      startService({ NODE_ENV: 'development', ...database.env }, undefined, checkout);
    const service = start();
    let token: string;
    try {
      const port = await service.listening();
      [, token] = await waitFor(
        service.output,
        /^STATIC_TOKENS is unset: development admin token \(kept in \.\/data\/development-secrets\.json\): ([\w-]{43})$/m,
      );
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ data: { status: 'ok' } });
      // Plain lines for the person at the terminal, after Nest's start-up chatter (at debug).
      expect(service.output()).toMatch(
        /^Listening on http:\/\/localhost:\d+\/ \(\w+, development\)$/m,
      );
      expect(service.output()).toMatch(/^Loaded 5 demo products$/m);
      expect(service.output()).not.toMatch(/InstanceLoader|RoutesResolver|RouterExplorer/);
      const products = (await (await fetch(`http://127.0.0.1:${port}/products`)).json()) as {
        data: unknown[];
      };
      expect(products.data).toHaveLength(5);
    } finally {
      service.child.kill('SIGTERM');
    }
    expect(await service.exit()).toEqual({ code: 0, signal: null });

    // A restart of the same checkout (a save in `npm run dev`): the same token, not printed.
    const again = start();
    try {
      const port = await again.listening();
      await waitFor(again.output, /^Development admin token: as before, in \.\/data\//m);
      expect(again.output()).not.toContain(token!);
      const users = await fetch(`http://127.0.0.1:${port}/users`, {
        headers: { authorization: `Bearer ${token!}` },
      });
      expect(users.status).toBe(200);
    } finally {
      again.child.kill('SIGTERM');
      await again.exit();
      rmSync(checkout, { recursive: true, force: true });
    }
  });

  it('on SIGTERM, finishes the request in flight, then closes and exits 0', async () => {
    const service = startService({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), ...database.env });
    try {
      const port = await service.listening();
      // Outside development the start-up line is a JSON log line like any other.
      const line = service
        .output()
        .split('\n')
        .find((text) => text.includes('Listening on'));
      expect(JSON.parse(line!)).toMatchObject({
        level: 30,
        msg: expect.stringMatching(/^Listening on/),
      });
      const body = JSON.stringify({
        data: { email: 'late@example.com', name: 'Late', password: 'long enough' },
      });
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      const head = `POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      socket.write(head + body.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 200));
      service.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.write(body.slice(10));
      await waitFor(() => answer, /^HTTP\/1\.1 \d{3} /);
      expect(answer).toMatch(/^HTTP\/1\.1 201 /);
      // Its connection is not kept for another request.
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      socket.end();
      expect(await service.exit()).toEqual({ code: 0, signal: null });
      expect(service.output()).toContain('SIGTERM: draining requests in flight');
      expect(service.output()).toContain('"msg":"Stopped"');
    } finally {
      service.child.kill('SIGKILL');
    }
  });

  it('npm start passes SIGTERM on to the service, which drains and exits 0', async () => {
    // --ignore-scripts skips prestart (the build, done by pretest already), not start itself.
    const service = startService(
      {
        NODE_ENV: 'test',
        JWT_SECRET: 'x'.repeat(32),
        HOME: process.env.HOME ?? '',
        ...database.env,
      },
      ['npm', 'start', '--ignore-scripts'],
    );
    try {
      const port = await service.listening();
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      service.child.kill('SIGTERM');
      expect(await service.exit()).toEqual({ code: 0, signal: null });
      expect(service.output()).toContain('"msg":"Stopped"');
      // The service is gone with npm, not left running on its own.
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      service.child.kill('SIGKILL');
    }
  });

  it.each<Record<string, string>>([{ NODE_ENV: 'production' }, {}])(
    'refuses to start in production (%j) without JWT_SECRET, in one line',
    async (nodeEnv) => {
      const service = startService({ ...nodeEnv, ...database.env });
      expect(await service.exit()).toEqual({ code: 1, signal: null });
      expect(service.errors()).toBe('');
      expect(refusal(service.output())).toBe(
        'Refusing to start: invalid configuration: JWT_SECRET is required in production (NODE_ENV unset or production)',
      );
    },
  );

  it('says in one JSON line, and nothing coloured, why it cannot start without its database', async () => {
    const service = startService({
      NODE_ENV: 'production',
      JWT_SECRET: 'q7V0dI3kzWc9mJ2uXhN5bRtE8yLpA4sGfKo1Hv6TjUw=',
      // Nothing listens on port 1: the connection is refused at once.
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test',
    });
    expect(await service.exit()).toEqual({ code: 1, signal: null });
    expect(service.errors()).toBe('');
    const lines = service
      .output()
      .split('\n')
      .filter((line) => line !== '');
    // No colour codes (ESC [), no "Retrying" from a start that does not retry.
    expect(lines.join('\n')).not.toContain('\u001b[');
    expect(lines.join('\n')).not.toContain('Retrying');
    const records = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    const failures = records.filter((record) => record.level >= 50);
    expect(failures).toEqual([
      expect.objectContaining({
        msg: expect.stringMatching(
          /^Refusing to start: cannot use the database at DATABASE_URL \(postgres:\/\/postgres@127\.0\.0\.1:1\/test\): .*ECONNREFUSED/,
        ),
      }),
    ]);
  });

  it('is production when run without NODE_ENV: no demo data, no admin token, no open /metrics', async () => {
    const empty = await createTestDatabase();
    const service = startService({
      JWT_SECRET: 'q7V0dI3kzWc9mJ2uXhN5bRtE8yLpA4sGfKo1Hv6TjUw=',
      ...empty.env,
    });
    try {
      const port = await service.listening();
      expect(service.output()).toMatch(/Listening on http:\/\/localhost:\d+\/ \(\w+, production\)/);
      expect(service.output()).not.toMatch(/admin token/);
      const products = await fetch(`http://127.0.0.1:${port}/products`);
      expect(await products.json()).toEqual({ data: [], cursor: null });
      const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(metrics.status).toBe(404);
      expect(await metrics.json()).toEqual({
        error: ['GET /metrics is off: set METRICS_TOKEN to serve it'],
      });
    } finally {
      service.child.kill('SIGTERM');
      await service.exit();
      await empty.drop();
    }
  });

  it('refuses weak secrets in production, naming each', async () => {
    const service = startService({
      JWT_SECRET: 'change-me-please-to-something-long',
      METRICS_TOKEN: 'aaaaaaaaaaaaaaaaaaaa',
      ...database.env,
    });
    expect(await service.exit()).toEqual({ code: 1, signal: null });
    expect(refusal(service.output())).toContain(
      'JWT_SECRET looks like a placeholder: use a random value',
    );
    expect(refusal(service.output())).toContain('METRICS_TOKEN is too uniform to be random');
  });

  withOtherNode('refuses to start on an unsupported Node, saying which one it needs', async () => {
    const service = startService({ NODE_ENV: 'test', ...database.env }, [otherNode!, SERVICE_MAIN]);
    expect(await service.exit()).toEqual({ code: 1, signal: null });
    const line = refusal(service.output());
    expect(line).toContain('Refusing to start: the service needs Node.js 24.9 or newer');
    expect(line).toContain(`(${otherNode})`);
    expect(line).toContain('`npm start`, or `node_modules/.bin/node .`');
  });

  it('seeds in production without JWT_SECRET', async () => {
    const seed = startService({ NODE_ENV: 'production', ...database.env }, [
      process.execPath,
      SEED,
    ]);
    expect(await seed.exit()).toEqual({ code: 0, signal: null });
    expect(seed.output()).toMatch(
      /^(Loaded 5 demo products|Products exist already; nothing loaded)\.\n$/,
    );
    expect(seed.errors()).toBe('');
  });

  it('a failing seed says why in one line and exits 1', async () => {
    const seed = startService(
      { NODE_ENV: 'production', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      [process.execPath, SEED],
    );
    expect(await seed.exit()).toEqual({ code: 1, signal: null });
    expect(seed.errors()).toMatch(/^Seed failed: .*ECONNREFUSED.*\n$/);
  });
});

// Outside development a refusal is the one line written, a JSON log line at fatal.
function refusal(output: string): string {
  const lines = output.split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  const record = JSON.parse(lines[0]) as { level: number; msg: string };
  expect(record.level).toBe(60);
  return record.msg;
}
