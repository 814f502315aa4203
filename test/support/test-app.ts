import type { INestApplication } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import type { App } from 'supertest/types';
import { createApp } from '../../apps/api/src/app.factory';
import { loadConfig } from '../../apps/api/src/config/app-config';
import { STATIC_ADMIN } from './shop-client';
import { createTestDatabase, TestDatabase } from './test-database';

export const TEST_JWT_SECRET = 'e2e-Hq4vT9xK2mW7pZ0rB5nJ8cL3fY6dS1gA';

export interface TestApp {
  app: INestApplication;
  http: App;
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * Boots the real service (real HTTP server, real database of this project's engine), with
 * one static admin token. It is built by createApp, exactly as production builds it, not by a
 * Nest TestingModule: the shop's specs override nothing (the kit's fixture app uses one). Pass `database` to start a second instance on the same database,
 * `logs` to read its log lines.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  { database: shared, logs }: { database?: TestDatabase; logs?: DestinationStream } = {},
): Promise<TestApp> {
  const database = shared ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    STATIC_TOKENS: JSON.stringify([STATIC_ADMIN]),
    // Specs sign many users up from one address, and would spend minutes hashing at OWASP's
    // cost; the specs of those limits set them back (test/accounts.e2e-spec.ts).
    SIGNUP_MAX_PER_ADDRESS: '1000000',
    PASSWORD_HASH_COST: '12',
    ...database.env,
    ...env,
  });
  const app = await createApp(config, logs);
  try {
    await app.init();
  } catch (error) {
    // A refused start (a spec may expect one) leaves no connection open.
    await app.close().catch(() => undefined);
    if (!shared) await database.drop();
    throw error;
  }
  return {
    app,
    http: app.getHttpServer() as App,
    database,
    close: async () => {
      await app.close();
      if (!shared) await database.drop();
    },
  };
}

/** Puts the service on a free port of this machine, for clients that speak real HTTP; its origin. */
export async function listenOnFreePort(service: TestApp): Promise<string> {
  await service.app.listen(0, '127.0.0.1');
  return service.app.getUrl();
}
