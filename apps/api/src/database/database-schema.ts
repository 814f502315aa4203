import { DataSource, DataSourceOptions } from 'typeorm';

/**
 * Creates the configured PostgreSQL schema (DATABASE_SCHEMA) when it does not exist yet, so
 * that the service's first start on a new schema can run its migrations into it.
 */
export async function createSchemaIfMissing(options: DataSourceOptions): Promise<void> {
  if (options.type !== 'postgres' || !options.schema) return;
  // A connection of its own, outside the schema, made and closed before the service's pool.
  const server = new DataSource({
    type: 'postgres',
    url: options.url,
    connectTimeoutMS: options.connectTimeoutMS,
    extra: { max: 1 },
  });
  await server.initialize();
  const runner = server.createQueryRunner();
  try {
    await runner.createSchema(options.schema, true);
  } finally {
    await runner.release();
    await server.destroy();
  }
}
