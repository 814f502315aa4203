import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What every server of a run shares: production mode, one database schema, one secret. */
export const BENCH = {
  databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  schema: process.env.BENCH_SCHEMA ?? 'bench',
  products: 100_000,
  customers: 50,
  connections: 50,
  logLevel: 'warn',
  jwtSecret: 'bench-Vx7qP2mK9tR4wN6zB1cJ8hL3fY5dS0g',
  admin: { token: 'bench-admin-token-0123456789', email: 'bench-admin@example.com' },
  // A signed-in customer of the costly-neighbours part (scale.ts), who lists their own orders.
  customer: { token: 'bench-customer-token-0123456789', email: 'bench-customer@example.com' },
  // Compiled to dist/bench/bench: the repository root is three levels up.
  root: join(__dirname, '..', '..', '..'),
  // Server logs, profiles, the report and the data the load script reads.
  workDir: join(tmpdir(), 'shop-api-bench'),
} as const;

const STATIC_TOKENS = JSON.stringify([
  { token: BENCH.admin.token, email: BENCH.admin.email, name: 'Bench admin', role: 'admin' },
  {
    token: BENCH.customer.token,
    email: BENCH.customer.email,
    name: 'Bench customer',
    role: 'customer',
  },
]);

/** The environment of every server in the run: production defaults, the same log level. */
export function serverEnvironment(port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    TZ: 'UTC',
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: BENCH.databaseUrl,
    DATABASE_SCHEMA: BENCH.schema,
    JWT_SECRET: BENCH.jwtSecret,
    STATIC_TOKENS,
    // The fixtures sign every customer up from this one address.
    SIGNUP_MAX_PER_ADDRESS: String(BENCH.customers),
    LOG_LEVEL: BENCH.logLevel,
  };
}
