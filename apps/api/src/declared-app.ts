import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { OpenApiService } from '@app/resource-kit';
import { AppModule } from './app.module';
import { loadConfig } from './config/app-config';

/**
 * Runs `read` on the service's modules with an in-memory database and no HTTP server: for
 * the commands that only read the declarations (the contract, the OpenAPI document).
 */
export async function withDeclaredApp<T>(read: (app: INestApplicationContext) => T): Promise<T> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SQLITE_PATH: ':memory:' });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), {
    logger: false,
  });
  try {
    return read(app);
  } finally {
    await app.close();
  }
}

/** The OpenAPI document GET /openapi.json serves, built without a server (client generation). */
export function openApiDocument(): Promise<unknown> {
  return withDeclaredApp((app) => app.get(OpenApiService).document());
}
