import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { OPERATIONS_PATHS } from '@app/resource-kit';
import { AppModule } from './app.module';
import { AppConfig } from './config/app-config';

/** Builds the service exactly as it runs in production; main.ts and the e2e tests share it. */
export async function createApp(config: AppConfig): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bufferLogs: true,
    // The kit reads JSON bodies itself (POST and PATCH only, with its limit and errors).
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  // Behind an API gateway: trust its X-Forwarded-For so client addresses are real.
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  // Resources live under the base path; the operations endpoints stay at the root.
  if (config.basePath !== '/') app.setGlobalPrefix(config.basePath, { exclude: OPERATIONS_PATHS });
  app.enableShutdownHooks();
  return app;
}
