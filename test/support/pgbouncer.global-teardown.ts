import type { RunningPgBouncer } from './pgbouncer';

export default async function stopPooler(): Promise<void> {
  await (globalThis as { pgbouncer?: RunningPgBouncer }).pgbouncer?.stop();
}
