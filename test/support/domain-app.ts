import type { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ResourceKitAdapter } from '@app/resource-kit';
import type { App } from 'supertest/types';
import request from 'supertest';
import { loadConfig } from '../../apps/api/src/config/app-config';
import type { DomainModule } from '../../apps/api/src/domains/resource-domains';
import { PlatformModule } from '../../apps/api/src/platform.module';
import { STATIC_ADMIN } from './shop-client';
import { createTestDatabase } from './test-database';

export interface DomainApp {
  app: INestApplication;
  http: App;
  /** The resource types the booted app serves, from its OpenAPI document. */
  types(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Boots the platform with only `domains` (a domain and those it depends on, SPEC 1.18), as a
 * team tests one: Nest's Test.createTestingModule, over HTTP, on this project's database,
 * with every migration run. Imports none of the other domains' code. `imports` adds a spec's
 * own modules beside them.
 */
export async function startDomains(
  domains: DomainModule[],
  imports: Type[] = [],
): Promise<DomainApp> {
  const database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'domain-specs-Hq4vT9xK2mW7pZ0rB5nJ8cL3fY6dS1gA',
    STATIC_TOKENS: JSON.stringify([STATIC_ADMIN]),
    PASSWORD_HASH_COST: '12',
    ...database.env,
  });
  const moduleRef = await Test.createTestingModule({
    imports: [PlatformModule.forRoot(config, domains), ...imports],
  }).compile();
  const app = moduleRef.createNestApplication(new ResourceKitAdapter(), {
    bodyParser: false,
    logger: false,
  });
  try {
    await app.init();
  } catch (error) {
    await app.close().catch(() => undefined);
    await database.drop();
    throw error;
  }
  const http = app.getHttpServer() as App;
  return {
    app,
    http,
    types: async () => {
      const document = (await request(http).get('/openapi.json').expect(200)).body as {
        paths: Record<string, unknown>;
      };
      return [...new Set(Object.keys(document.paths).map((path) => path.split('/')[1]))].sort();
    },
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
