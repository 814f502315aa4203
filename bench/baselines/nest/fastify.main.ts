// The same hand-written NestJS 12 + TypeORM baseline on @nestjs/platform-fastify: one module,
// controllers and pipe, another HTTP adapter.
process.env.TZ = 'UTC';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { logRequest } from '../request-log';
import { SETTINGS } from '../shop.wire';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), {
    logger: ['error', 'warn'],
  });
  // A fastify hook rather than middleware: @fastify/middie would add a layer the express
  // baseline's app.use() does not have.
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      logRequest(request.raw, reply.raw);
      done();
    });
  app.enableShutdownHooks();
  await app.listen(SETTINGS.port, '127.0.0.1');
}

void main();
