import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { DestinationStream } from 'pino';
import { OPERATIONS_PATHS, ResourceKitAdapter } from '@app/resource-kit';
import { AppModule } from './app.module';
import { AppConfig } from './config/app-config';
import { corsFor, securityHeaders, varyOnOrigin } from './http/http-edges';
import { createLogger, NestPinoLogger } from './logging/app-logger';
import { requestTimeLimit } from './lifecycle/request-time-limit.middleware';
import { requestLog } from './logging/request-log.middleware';
import { MetricsService } from './metrics/metrics.service';
import { ResourceDomains } from './domains/resource-domains';

/**
 * Builds the service exactly as it runs in production; main.ts and the e2e tests share it.
 * Logs go to standard output unless given another destination (tests read them).
 */
export async function createApp(
  config: AppConfig,
  logDestination?: DestinationStream,
): Promise<INestApplication> {
  const logger = createLogger(config.logLevel, logDestination);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config),
    // The kit writes resource answers at this adapter's reply; requests and responses are
    // built on Express's prototypes (a measured gain, docs/performance.md).
    new ResourceKitAdapter({ prototypedServer: true }),
    {
      // JSON lines from the first one, a failed start included (Nest's own logger is coloured).
      logger: new NestPinoLogger(logger),
      // The kit reads JSON bodies itself (POST and PATCH only, with its limit and errors).
      bodyParser: false,
      // A failed start rejects (main.ts says why in one line) instead of exiting from inside Nest.
      abortOnError: false,
    },
  );
  // Client addresses (logs, login throttling) come from X-Forwarded-For of trusted proxies only.
  app.set('trust proxy', config.http.trustProxy);
  // Helmet's headers are applied from a list taken once, which cannot remove this one.
  app.disable('x-powered-by');
  // Before anything answers, so that every request, a CORS preflight included, is seen.
  app.use(requestLog(logger, app.get(ResourceDomains)), app.get(MetricsService).observe);
  app.use(requestTimeLimit(config.requestTimeoutMs));
  app.use(securityHeaders(config.http));
  if (config.http.corsOrigins.length > 0) {
    app.use(varyOnOrigin);
    app.enableCors(corsFor(config.http.corsOrigins));
  }
  // Resources live under the base path; the operations endpoints and /metrics stay at the root.
  if (config.basePath !== '/') {
    app.setGlobalPrefix(config.basePath, {
      exclude: [...OPERATIONS_PATHS, 'metrics', 'asyncapi.json'],
    });
  }
  return app;
}
