// The hand-written NestJS 12 + platform-express + TypeORM baseline of the bench.
process.env.TZ = 'UTC';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { SETTINGS } from '../shop.wire';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.listen(SETTINGS.port);
}

void main();
