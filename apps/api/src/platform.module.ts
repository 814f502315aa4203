import { DynamicModule, Module, Provider } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { trace } from '@opentelemetry/api';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { READ_REPLICAS, ResourceKitModule } from '@app/resource-kit';
import { APP_CONFIG, AppConfig } from './config/app-config';
import { createSchemaIfMissing } from './database/database-schema';
import { dataSourceOptions } from './database/data-source.options';
import { migrate } from './database/migrate';
import { ReplicaSet } from './database/replica-set';
import { MetricsModule } from './metrics/metrics.module';
import { DOMAIN_MODULES, DomainModule, ResourceDomains } from './domains/resource-domains';
import { HandlerSpansInterceptor } from './telemetry/handler-spans.interceptor';
import { tracingStarted } from './telemetry/tracing';

/**
 * What every domain runs on: the configuration, the database and its migrations, the kit,
 * metrics and tracing. The shop is this with its four domains (AppModule); a module spec boots
 * it with one domain and the domains that one depends on.
 */
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig, domains: readonly DomainModule[]): DynamicModule {
    return {
      module: PlatformModule,
      // APP_CONFIG is visible to every feature module.
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...dataSourceOptions(config.database),
            autoLoadEntities: true,
            // Run before, by one instance at a time, under a lock timeout (migrate.ts).
            migrationsRun: false,
            // Fail fast at start instead of retrying for minutes, and without a log line that
            // says it retries: main.ts reports the cause in one line.
            retryAttempts: 0,
            toRetry: () => false,
          }),
          // The migrations run into the configured schema: it must exist before they do.
          dataSourceFactory: async (options) => {
            await createSchemaIfMissing(options!);
            await migrate(config.database);
            return new DataSource(options!);
          },
        }),
        ResourceKitModule.forRoot({
          secret: config.jwtSecret,
          auth: { jwt: config.jwt },
          basePath: config.basePath,
          idempotencyKeyTtlSeconds: config.idempotencyKeyTtlSeconds,
          validateOutput: config.outputValidation,
          // A transaction pooler may run each statement on another server connection.
          namedStatements: config.database.type !== 'postgres' || config.database.pooler === 'none',
          costlyQueries: config.costlyQueries,
          title: 'Shop API',
          version: '1.0.0',
          tracer: tracingStarted() ? trace.getTracer('resource-kit') : undefined,
        }),
        MetricsModule,
        ...domains,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: DOMAIN_MODULES, useValue: domains },
        ResourceDomains,
        ReplicaSet,
        // The kit's resources read from the replicas through the interface it declares.
        { provide: READ_REPLICAS, useExisting: ReplicaSet },
        ...handlerSpans(),
      ],
      exports: [APP_CONFIG, ReplicaSet, READ_REPLICAS, ResourceDomains],
    };
  }
}

// Nest's handler spans, only when traces are exported (apps/api/src/telemetry).
function handlerSpans(): Provider[] {
  return tracingStarted() ? [{ provide: APP_INTERCEPTOR, useClass: HandlerSpansInterceptor }] : [];
}
