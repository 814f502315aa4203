// jest globalSetup of the e2e:pgbouncer project: one PgBouncer in transaction mode in front of
// the test server for the whole run; its URL reaches the workers through the environment.
import { startPgBouncer, type RunningPgBouncer } from './pgbouncer';

export default async function startPooler(): Promise<void> {
  const upstream = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const pooler = await startPgBouncer(upstream);
  process.env.TEST_PGBOUNCER_URL = pooler.url;
  (globalThis as { pgbouncer?: RunningPgBouncer }).pgbouncer = pooler;
}
