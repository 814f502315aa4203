import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

// Changed after commit by the webhook worker, whatever the request: the outbox rows of earlier
// writes are handed out as deliveries. What a request writes shows in `events` too.
const WORKER_TABLES = new Set(['webhook_outbox', 'webhook_deliveries']);

/** Every row of every table but the worker's, hashed: any change a request made shows. */
export async function checksum(dataSource: DataSource): Promise<string> {
  const hash = createHash('sha256');
  const escape = (name: string) => dataSource.driver.escape(name);
  // Ordered by the primary key (the kit's idempotency_keys has no id).
  // Tables named with their schema: through a transaction pooler there is no search_path.
  for (const { tablePath, tableName, primaryColumns } of dataSource.entityMetadatas) {
    if (WORKER_TABLES.has(tableName)) continue;
    const table = tablePath.split('.').map(escape).join('.');
    const order = primaryColumns.map((column) => escape(column.databaseName)).join(', ');
    const rows: unknown = await dataSource.query(`SELECT * FROM ${table} ORDER BY ${order}`);
    hash.update(JSON.stringify(rows));
  }
  return hash.digest('hex');
}
