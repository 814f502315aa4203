import type { INestApplication } from '@nestjs/common';
import type { App } from 'supertest/types';
import { createApp } from '../../apps/api/src/app.factory';
import { loadConfig } from '../../apps/api/src/config/app-config';
import { createTestDatabase, TestDatabase } from './test-database';

export interface TestApp {
  app: INestApplication;
  http: App;
  database: TestDatabase;
  close(): Promise<void>;
}

/** Boots the real service (real HTTP server, real database of this project's engine). */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...database.env, ...env });
  const app = await createApp(config);
  await app.init();
  return {
    app,
    http: app.getHttpServer() as App,
    database,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
