import { Agent, request as httpRequest } from 'node:http';
import { Client } from 'pg';
import { scaledMs } from './support/machine-load';
import { ADMIN_TOKEN, STATIC_ADMIN } from './support/shop-client';
import { ServiceProcess, startService } from './support/service-process';
import { TEST_JWT_SECRET } from './support/test-app';
import { createTestDatabase, TEST_DATABASE_URL, TestDatabase } from './support/test-database';

// The built service as a process, under keep-alive load, with one request stuck on a row lock
// this spec holds in PostgreSQL, so the grace period runs out while it waits.
const onPostgres = process.env.TEST_DATABASE === 'postgres' ? describe : describe.skip;

const GRACE_MS = 2_000;
const CLIENTS = 50;

interface Outcome {
  sentAt: number;
  status?: number;
  retryAfter?: string | string[];
  error?: string;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(port: number, method: string, path: string, agent?: Agent, body?: object) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          Authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

// One client reusing its keep-alive connection until told to stop.
async function loop(port: number, outcomes: Outcome[], running: () => boolean): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  while (running()) {
    const outcome: Outcome = { sentAt: Date.now() };
    outcomes.push(outcome);
    try {
      const answer = await call(port, 'GET', '/products?limit=5', agent);
      outcome.status = answer.status;
      outcome.retryAfter = answer.headers['retry-after'];
    } catch (error) {
      outcome.error = (error as NodeJS.ErrnoException).code ?? String(error);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  agent.destroy();
}

onPostgres('SIGTERM under keep-alive load', () => {
  let database: TestDatabase;
  let service: ServiceProcess;
  let locker: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    locker = new Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
  });
  afterAll(async () => {
    service?.child.kill('SIGKILL');
    await locker.end();
    await database.drop();
  });

  it('answers what it can, 503s the stuck request, closes and exits 0 within the grace period', async () => {
    service = startService({
      NODE_ENV: 'production',
      JWT_SECRET: TEST_JWT_SECRET,
      STATIC_TOKENS: JSON.stringify([STATIC_ADMIN]),
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      // Neither limit may end the stuck request before the grace period does.
      REQUEST_TIMEOUT_MS: '60000',
      DATABASE_STATEMENT_TIMEOUT_MS: '60000',
      ...database.env,
    });
    const port = await service.listening();
    const created = await call(port, 'POST', '/products', undefined, {
      data: { name: 'Kettle', price_cents: 100, stock: 1 },
    });
    expect(created.status).toBe(201);
    const productId = (JSON.parse(created.body) as { data: { id: string } }).data.id;

    // The PATCH waits for the row lock this spec holds.
    await locker.query('BEGIN');
    await locker.query(
      `SELECT 1 FROM "${database.env.DATABASE_SCHEMA}".products WHERE id = $1 FOR UPDATE`,
      [productId],
    );
    const stuck = call(port, 'PATCH', `/products/${productId}`, undefined, {
      data: { name: 'Renamed' },
    });

    const outcomes: Outcome[] = [];
    let running = true;
    const clients = Array.from({ length: CLIENTS }, () => loop(port, outcomes, () => running));
    // A second of load, and at least two answers per client (a loaded machine answers slowly).
    const loaded = Date.now() + 1_000;
    while (Date.now() < loaded || outcomes.length <= 2 * CLIENTS) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const signalledAt = Date.now();
    service.child.kill('SIGTERM');
    const exit = await service.exit();
    const stoppedAfter = Date.now() - signalledAt;
    running = false;
    await Promise.all(clients);

    expect(exit).toEqual({ code: 0, signal: null });
    // The grace period, then closing: a bound against a hang, stretched on a loaded machine.
    expect(stoppedAfter).toBeLessThan(GRACE_MS + scaledMs(2_500));
    expect(stoppedAfter).toBeGreaterThanOrEqual(GRACE_MS);

    const answer = await stuck;
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(JSON.parse(answer.body)).toEqual({
      error: ['the request was cut short by a restart; try again'],
    });

    // Every request sent before the signal got an answer: 200, or 503 if the drain had begun.
    const before = outcomes.filter((outcome) => outcome.sentAt < signalledAt);
    expect(before.length).toBeGreaterThan(CLIENTS);
    expect(before.filter((outcome) => outcome.status === undefined)).toEqual([]);
    // Later ones may find the port closed; whatever was answered is 200, or 503 to retry.
    const answered = outcomes.filter((outcome) => outcome.status !== undefined);
    expect(answered.filter((outcome) => outcome.status !== 200 && outcome.status !== 503)).toEqual(
      [],
    );
    expect(
      answered.filter((outcome) => outcome.status === 503 && outcome.retryAfter !== '1'),
    ).toEqual([]);

    // The stuck write never committed.
    await locker.query('ROLLBACK');
    const { rows } = await locker.query<{ name: string }>(
      `SELECT name FROM "${database.env.DATABASE_SCHEMA}".products WHERE id = $1`,
      [productId],
    );
    expect(rows).toEqual([{ name: 'Kettle' }]);
    expect(service.output()).toContain(
      '1 request(s) still running after the grace period: answered 503',
    );
    console.log(
      `shutdown under load: ${before.length} requests before the signal, ` +
        `${outcomes.length - before.length} after; exit after ${stoppedAfter} ms`,
    );
  }, 30_000);
});
