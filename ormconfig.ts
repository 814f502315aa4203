// Same as the service: times are UTC in zone-less columns.
process.env.TZ = 'UTC';
import 'reflect-metadata';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfigWithoutSecret } from './apps/api/src/config/app-config';
import { migrationDataSourceOptions } from './apps/api/src/database/data-source.options';

// The data source of the TypeORM CLI (npm run migration:*), configured from the same
// environment as the service (JWT_SECRET aside: migrations sign nothing). It runs from the
// build output (dist/ormconfig.js), on the connections the service migrates on (a lock
// timeout, no statement timeout). The service's start also takes the migrations' lease; the
// CLI does not: run it when no instance starts.
export default new DataSource({
  ...migrationDataSourceOptions(loadConfigWithoutSecret().database),
  // The service's resources and the kit's own table (idempotency keys).
  entities: [join(__dirname, '{apps/api,libs/resource-kit}/src/**/*.entity.js')],
});
