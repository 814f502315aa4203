// Platformatic DB 3 as its docs build an API: the REST routes it generates from the tables,
// started with its programmatic `create`, and a plugin (plugin.mjs) with Fastify hooks and an
// entity hook for the rest. Plain JavaScript, as Platformatic's guides write it; it runs from
// its own folder, where the bench installs it (npm ci) on its first run.
import { join } from 'node:path';
import { create } from '@platformatic/db';
import { SETTINGS } from './shop-wire.mjs';

// The bench's schema: Platformatic names entities after their tables in the current schema
// (with `db.schema` it would prefix them with the schema's name), and node-postgres sets the
// search path of every connection from PGOPTIONS.
process.env.PGOPTIONS = `-c search_path=${SETTINGS.schema} -c timezone=UTC`;

const app = await create(import.meta.dirname, {
  server: {
    hostname: '127.0.0.1',
    port: SETTINGS.port,
    logger: { level: SETTINGS.logLevel },
  },
  db: {
    connectionString: SETTINGS.databaseUrl,
    poolSize: SETTINGS.pool.max,
    // As node-postgres's pool, which the other servers use: idle connections close after 10 s
    // (with two processes each, six servers' pools held open would pass PostgreSQL's 100).
    idleTimeoutMilliseconds: 10_000,
    graphql: false,
    openapi: true,
    // The service's created_at and updated_at are the same instant, set by the create.
    autoTimestamp: false,
    // One row beyond the page tells whether a next page exists.
    limit: { default: SETTINGS.pageSize.default + 1, max: SETTINGS.pageSize.max + 1 },
    // Only the products are served.
    include: { products: true, product_revisions: true, events: true },
  },
  plugins: { paths: [join(import.meta.dirname, 'plugin.mjs')] },
});
await app.start();
process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
