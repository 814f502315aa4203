// The hand-written NestJS 12 + platform-express + TypeORM baseline of the bench.
process.env.TZ = 'UTC';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { logRequest } from '../request-log';
import { SETTINGS } from '../shop.wire';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  // Nest's own messages (start-up, errors) stay on its console logger; requests log on pino.
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  app.use((request: IncomingMessage, response: ServerResponse, next: () => void) => {
    logRequest(request, response);
    next();
  });
  app.enableShutdownHooks();
  await app.listen(SETTINGS.port);
}

void main();
