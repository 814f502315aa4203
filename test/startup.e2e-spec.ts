import { once } from 'node:events';
import { connect } from 'node:net';
import { collect, startService, waitFor } from './support/service-process';
import { createTestDatabase, TestDatabase } from './support/test-database';

describe('service process', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('starts in development, prints its URL and an admin token, and stops on SIGTERM', async () => {
    const service = startService({ NODE_ENV: 'development', ...database.env });
    const output = collect(service.stdout);
    try {
      const [, port] = await waitFor(output, /Listening on http:\/\/localhost:(\d+)\//);
      await waitFor(output, /development admin token for this run: [\w-]{43}/);
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ data: { status: 'ok' } });
      // Development loads the demo catalogue.
      expect(output()).toContain('Loaded 5 demo products');
      const products = (await (await fetch(`http://127.0.0.1:${port}/products`)).json()) as {
        data: unknown[];
      };
      expect(products.data).toHaveLength(5);
    } finally {
      service.kill('SIGTERM');
    }
    // Nest closes the server and the database, then re-raises the signal to exit.
    const [code, signal] = (await once(service, 'exit')) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('on SIGTERM, finishes the request in flight before it exits', async () => {
    const service = startService({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), ...database.env });
    const output = collect(service.stdout);
    try {
      const [, port] = await waitFor(output, /Listening on http:\/\/localhost:(\d+)\//);
      const body = JSON.stringify({
        data: { email: 'late@example.com', name: 'Late', password: 'long enough' },
      });
      const socket = connect(Number(port), '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      const head = `POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      socket.write(head + body.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 200));
      service.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.write(body.slice(10));
      await waitFor(() => answer, /^HTTP\/1\.1 \d{3} /);
      expect(answer).toMatch(/^HTTP\/1\.1 201 /);
      socket.end();
      // Then the service finishes closing (server, database) and exits by the signal.
      const [code, signal] = (await once(service, 'exit')) as [number | null, string | null];
      expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
    } finally {
      service.kill('SIGKILL');
    }
  }, 15_000);

  it('refuses to start in production without JWT_SECRET', async () => {
    const service = startService({ NODE_ENV: 'production', ...database.env });
    const errors = collect(service.stderr);
    const [code] = (await once(service, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(errors()).toContain('Refusing to start. Invalid configuration:');
    expect(errors()).toContain('JWT_SECRET is required when NODE_ENV=production');
  });
});
