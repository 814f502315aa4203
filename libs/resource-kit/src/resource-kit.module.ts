import { DynamicModule, Global, Inject, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, DiscoveryModule, HttpAdapterHost } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { Authenticator } from './auth/authenticator';
import { AuthOptions, KIT_AUTH_OPTIONS } from './auth/auth.options';
import { JwtStrategy } from './auth/jwt.strategy';
import { StaticTokenRegistry } from './auth/static-token.registry';
import { StaticTokenStrategy } from './auth/static-token.strategy';
import { TokenIssuer } from './auth/token.issuer';
import { ResourceRegistry } from './service/resource-registry';
import { ResourceHandlers } from './controller/resource.handlers';
import { ResourceGuard } from './controller/resource.guard';
import { ResourceRoutesCheck } from './controller/resource-routes.check';
import { SqliteFunctions } from './persistence/sqlite-functions';
import { CostlyQueries } from './persistence/costly-queries';
import { TrigramWords } from './persistence/trigram-words';
import { WriteUnits } from './service/write-units';
import { CommittedListeners } from './service/committed-listeners';
import { WriteReactions } from './service/write-reactions';
import { TransactionRunner } from './persistence/transaction.runner';
import { CURSOR_CODEC } from './service/resource-reads';
import { UnroutedResponder } from './http/unrouted.responder';
import { KitExceptionFilter } from './http/exception.filter';
import { ResourceKitAdapter } from './http/resource-kit.adapter';
import { JsonBodyReader } from './http/json-body.reader';
import { HealthController } from './operations/health.controller';
import { OpenApiController } from './openapi/openapi.controller';
import { OpenApiService } from './openapi/openapi.service';
import { CursorCodec } from './query/cursor.codec';
import { IdempotencyKey } from './idempotency/idempotency-key.entity';
import { IdempotencyGate } from './idempotency/idempotency.gate';
import { IDEMPOTENCY_SETTINGS, IdempotencyStore } from './idempotency/idempotency.store';
import {
  RESOURCE_KIT_OPTIONS,
  ResourceKitOptions,
  resolveKitOptions,
  type ResolvedKitOptions,
} from './resource-kit.options';

export interface ResourceKitRootOptions extends ResourceKitOptions {
  /** Server secret from which the kit derives its signing keys (cursors). */
  secret: string;
  /** Bearer token verification and issuing. */
  auth: AuthOptions;
}

/** The cursor codec of a service with this secret (its key is derived, never the secret). */
export function cursorCodecFor(secret: string): CursorCodec {
  return new CursorCodec(derivedKey('cursor', secret));
}

function derivedKey(purpose: string, secret: string): string {
  return createHash('sha256').update(`${purpose}:${secret}`).digest('base64url');
}

/**
 * The kit's global machinery, registered once in the root module so that test apps behave
 * exactly like production: what the resource controllers use (their guard, handlers, the
 * persistence), the check that no route takes a resource's paths, the exception filter of
 * every route, and the operations endpoints.
 */
@Global()
@Module({})
export class ResourceKitModule implements NestModule {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
  ) {}

  static forRoot(options: ResourceKitRootOptions): DynamicModule {
    const resolved = resolveKitOptions(options);
    return {
      module: ResourceKitModule,
      imports: [TypeOrmModule.forFeature([IdempotencyKey]), DiscoveryModule],
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
        IdempotencyGate,
        ResourceRegistry,
        OpenApiService,
        ResourceGuard,
        JsonBodyReader,
        ResourceHandlers,
        ResourceRoutesCheck,
        TransactionRunner,
        CostlyQueries,
        TrigramWords,
        WriteUnits,
        WriteReactions,
        CommittedListeners,
        SqliteFunctions,
        JsonBodyReader,
        UnroutedResponder,
        { provide: APP_FILTER, useClass: KitExceptionFilter },
        { provide: KIT_AUTH_OPTIONS, useValue: options.auth },
        StaticTokenRegistry,
        StaticTokenStrategy,
        JwtStrategy,
        TokenIssuer,
        Authenticator,
      ],
      exports: [
        RESOURCE_KIT_OPTIONS,
        ResourceGuard,
        JsonBodyReader,
        ResourceHandlers,
        Authenticator,
        CURSOR_CODEC,
        ResourceRegistry,
        OpenApiService,
        StaticTokenRegistry,
        TokenIssuer,
        TransactionRunner,
        CostlyQueries,
        TrigramWords,
        WriteUnits,
        CommittedListeners,
        IdempotencyStore,
      ],
    };
  }

  // Before Nest routes anything: resource answers are written at the kit's adapter's reply.
  configure(): void {
    const adapter = this.adapterHost.httpAdapter as object | undefined;
    ResourceKitAdapter.attach(adapter, this.options.validateOutput);
  }
}
