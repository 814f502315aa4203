import {
  DynamicModule,
  Global,
  MiddlewareConsumer,
  Module,
  NestModule,
  OnModuleInit,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, HttpAdapterHost } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { AccessGuard } from './auth/access.guard';
import { AuthOptions, KIT_AUTH_OPTIONS } from './auth/auth.options';
import { JwtStrategy } from './auth/jwt.strategy';
import { StaticTokenRegistry } from './auth/static-token.registry';
import { StaticTokenStrategy } from './auth/static-token.strategy';
import { TokenIssuer } from './auth/token.issuer';
import { ResourceRegistry } from './controller/resource-registry';
import { TransactionRunner } from './persistence/transaction.runner';
import { CURSOR_CODEC } from './controller/resource.service';
import { UnroutedResponder } from './http/unrouted.responder';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { KitExceptionFilter } from './http/exception.filter';
import { JsonBodyMiddleware } from './http/json-body.middleware';
import { HealthController } from './operations/health.controller';
import { OpenApiController } from './openapi/openapi.controller';
import { OpenApiService } from './openapi/openapi.service';
import { CursorCodec } from './query/cursor.codec';
import { EntityTagInterceptor } from './conditional/entity-tag.interceptor';
import { IdempotencyKey } from './idempotency/idempotency-key.entity';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IDEMPOTENCY_SETTINGS, IdempotencyStore } from './idempotency/idempotency.store';
import {
  RESOURCE_KIT_OPTIONS,
  ResourceKitOptions,
  resolveKitOptions,
} from './resource-kit.options';

export interface ResourceKitRootOptions extends ResourceKitOptions {
  /** Server secret from which the kit derives its signing keys (cursors). */
  secret: string;
  /** Bearer token verification and issuing. */
  auth: AuthOptions;
}

/**
 * The kit's global machinery, registered once in the root module as APP_* providers so
 * that test apps behave exactly like production: body parsing, 405s, access, errors.
 */
/** The cursor codec of a service with this secret (its key is derived, never the secret). */
export function cursorCodecFor(secret: string): CursorCodec {
  return new CursorCodec(derivedKey('cursor', secret));
}

function derivedKey(purpose: string, secret: string): string {
  return createHash('sha256').update(`${purpose}:${secret}`).digest('base64url');
}

@Global()
@Module({})
export class ResourceKitModule implements NestModule, OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  static forRoot(options: ResourceKitRootOptions): DynamicModule {
    const resolved = resolveKitOptions(options);
    return {
      module: ResourceKitModule,
      imports: [TypeOrmModule.forFeature([IdempotencyKey])],
      controllers: [HealthController, OpenApiController],
      providers: [
        { provide: RESOURCE_KIT_OPTIONS, useValue: resolved },
        { provide: CURSOR_CODEC, useValue: cursorCodecFor(options.secret) },
        {
          provide: IDEMPOTENCY_SETTINGS,
          useValue: {
            keyTtlSeconds: resolved.idempotencyKeyTtlSeconds,
            fingerprintKey: derivedKey('idempotency', options.secret),
          },
        },
        IdempotencyStore,
        ResourceRegistry,
        OpenApiService,
        TransactionRunner,
        JsonBodyMiddleware,
        UnroutedResponder,
        { provide: APP_FILTER, useClass: KitExceptionFilter },
        { provide: KIT_AUTH_OPTIONS, useValue: options.auth },
        StaticTokenRegistry,
        StaticTokenStrategy,
        JwtStrategy,
        TokenIssuer,
        // One guard: 404 for a path not spelled as declared, 405 for a wrong verb, then 401/403.
        { provide: APP_GUARD, useClass: AccessGuard },
        // Interceptors nest in this order: the ETag sees what the client gets (a replay too).
        { provide: APP_INTERCEPTOR, useClass: EntityTagInterceptor },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
      ],
      exports: [
        RESOURCE_KIT_OPTIONS,
        CURSOR_CODEC,
        ResourceRegistry,
        OpenApiService,
        StaticTokenRegistry,
        TokenIssuer,
        TransactionRunner,
        IdempotencyStore,
      ],
    };
  }

  // Express's weak body-hash ETag would sit on collections and mislead; the kit tags resources.
  onModuleInit(): void {
    const express = this.adapterHost.httpAdapter?.getInstance<{
      set?(name: string, value: unknown): void;
    }>();
    express?.set?.('etag', false);
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(JsonBodyMiddleware).forRoutes('*');
  }
}
