import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { startService, waitFor } from './support/service-process';
import { createTestDatabase, TestDatabase, withClient } from './support/test-database';

const JWT_SECRET = 'q7V0dI3kzWc9mJ2uXhN5bRtE8yLpA4sGfKo1Hv6TjUw=';
const MISSING = 'products.cost_cents (column "cost_cents" of "products")';
const COMMAND = 'npm run migration:generate -- <Name>';

// An entity member whose migration was never written: the database as the migrations made it,
// less the column of one member, as after a member is added to an entity in `npm run dev`.
describe('a member the entities declare and the database lacks', () => {
  let database: TestDatabase;
  let checkout: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    checkout = mkdtempSync(join(tmpdir(), 'checkout-'));
    const migrate = startService({ NODE_ENV: 'test', JWT_SECRET, ...database.env });
    await migrate.listening();
    migrate.child.kill('SIGTERM');
    await migrate.exit();
    await dropColumn(database, 'products', 'cost_cents');
  });
  afterAll(async () => {
    await database.drop();
    rmSync(checkout, { recursive: true, force: true });
  });

  it('in development: one line naming it and the command, and its resource answers 503 saying so', async () => {
    const service = startService({ NODE_ENV: 'development', ...database.env }, undefined, checkout);
    try {
      const port = await service.listening();
      const [line] = await waitFor(service.output, /^Schema drift: .*$/m);
      expect(line).toBe(
        `Schema drift: ${MISSING} is declared but not in the database: write its migration with ${COMMAND}`,
      );
      const [, token] = await waitFor(service.output, /admin token \(kept in .*\): ([\w-]{43})$/m);
      const products = await fetch(`http://127.0.0.1:${port}/products`);
      expect(products.status).toBe(503);
      expect(await products.json()).toEqual({
        error: [`${MISSING} has no migration yet: write it with ${COMMAND}, then restart`],
      });
      // The other resources serve as ever.
      const users = await fetch(`http://127.0.0.1:${port}/users`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(users.status).toBe(200);
      expect(service.output()).not.toMatch(/no such column|does not exist/);
    } finally {
      service.child.kill('SIGTERM');
      await service.exit();
    }
  });

  it('in production: refuses to start, in one JSON line naming it', async () => {
    const service = startService({ NODE_ENV: 'production', JWT_SECRET, ...database.env });
    expect(await service.exit()).toEqual({ code: 1, signal: null });
    expect(service.errors()).toBe('');
    const failures = service
      .output()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((record) => record.level >= 50);
    expect(failures).toEqual([
      expect.objectContaining({
        level: 60,
        msg: `Refusing to start: the database lacks what the entities declare (a migration is missing): ${MISSING}; write it with ${COMMAND}`,
      }),
    ]);
  });
});

async function dropColumn(database: TestDatabase, table: string, column: string): Promise<void> {
  const { SQLITE_PATH: path, DATABASE_SCHEMA: schema } = database.env;
  if (path) {
    const sqlite = await new DataSource({ type: 'better-sqlite3', database: path }).initialize();
    await sqlite.query(`ALTER TABLE "${table}" DROP COLUMN "${column}"`);
    await sqlite.destroy();
    return;
  }
  await withClient((client) =>
    client.query(`ALTER TABLE "${schema}"."${table}" DROP COLUMN "${column}"`),
  );
}
