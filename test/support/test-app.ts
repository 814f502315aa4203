import type { INestApplication } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import type { App } from 'supertest/types';
import { createApp } from '../../apps/api/src/app.factory';
import { loadConfig } from '../../apps/api/src/config/app-config';
import { STATIC_ADMIN } from './shop-client';
import { createTestDatabase, TestDatabase } from './test-database';

export const TEST_JWT_SECRET = 'e2e-jwt-secret-of-at-least-thirty-two-characters';

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
    ...database.env,
    ...env,
  });
  const app = await createApp(config, logs);
  await app.init();
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
