import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** Every row of every table, hashed: any change a request made shows. */
export async function checksum(dataSource: DataSource): Promise<string> {
  const hash = createHash('sha256');
  const escape = (name: string) => dataSource.driver.escape(name);
  // Ordered by the primary key (the kit's idempotency_keys has no id).
  for (const { tableName, primaryColumns } of dataSource.entityMetadatas) {
    const order = primaryColumns.map((column) => escape(column.databaseName)).join(', ');
    const rows: unknown = await dataSource.query(
      `SELECT * FROM ${escape(tableName)} ORDER BY ${order}`,
    );
    hash.update(JSON.stringify(rows));
  }
  return hash.digest('hex');
}
