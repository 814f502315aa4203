import {
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  Logger,
  NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { createHmac } from 'node:crypto';
import { from, lastValueFrom, Observable } from 'rxjs';
import { stringify } from 'safe-stable-stringify';
import type { Caller } from '../auth/caller';
import { ForResource, HandlesOperation } from '../controller/operation';
import { KitError } from '../errors/kit.error';
import { describeFailure } from '../http/exception.filter';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { parseIdempotencyKey } from './idempotency-key.parser';
import {
  IDEMPOTENCY_SETTINGS,
  IdempotencyStore,
  type Claim,
  type IdempotencySettings,
  type IdempotentRequest,
} from './idempotency.store';

const claims = new WeakMap<Request, Claim>();

/** The claim of this request's Idempotency-Key, which its write completes. */
export function claimOf(request: Request): Claim | undefined {
  return claims.get(request);
}

/**
 * Idempotency-Key on POST (SPEC 1.11): the first request with a key runs and its write stores
 * the answer; a repeat gets that answer with `Idempotent-Replayed: true` and runs nothing.
 * Runs after authentication and before the body is validated, since a repeat must not be
 * judged against today's data (the checked-out cart items are gone).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('ResourceKit');

  constructor(
    private readonly reflector: Reflector,
    private readonly store: IdempotencyStore,
    @Inject(IDEMPOTENCY_SETTINGS) private readonly settings: IdempotencySettings,
    @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    const header = request.headers['idempotency-key'];
    if (header === undefined || !this.applies(context)) return next.handle();
    const response = context.switchToHttp().getResponse<Response>();
    // A promise, not a subscription: a client that goes away does not cut the bookkeeping short.
    return from(
      this.once(this.describe(request, parseIdempotencyKey(header)), request, response, next),
    );
  }

  private applies(context: ExecutionContext): boolean {
    const handles = this.reflector.get(HandlesOperation, context.getHandler());
    const definition = this.reflector.get(ForResource, context.getClass());
    return handles?.operation === 'create' && definition?.idempotency !== false;
  }

  private async once(
    idempotent: IdempotentRequest,
    request: Request,
    response: Response,
    next: CallHandler,
  ): Promise<unknown> {
    const outcome = await this.store.claim(idempotent);
    if ('replay' in outcome) {
      response.status(outcome.replay.status).setHeader('Idempotent-Replayed', 'true');
      return outcome.replay.body;
    }
    claims.set(request, outcome.claim);
    try {
      return await lastValueFrom(next.handle());
    } catch (error) {
      await this.settle(outcome.claim, error);
      throw error;
    }
  }

  // Domain conflicts are answers worth keeping; anything else frees the key for a retry.
  private async settle(claim: Claim, error: unknown): Promise<void> {
    const failure = describeFailure(error);
    const kept = failure.status === 409 && !isKeyInUse(error);
    const answer = { status: 409, body: { [this.options.errorKey]: failure.messages } };
    try {
      await this.store.settle(claim, kept ? answer : undefined);
    } catch (settling) {
      this.logger.warn(`Idempotency-Key left claimed until its lease ends: ${String(settling)}`);
    }
  }

  // Scoped to the caller; without a token, to the key and the path.
  private describe(request: Request, key: string): IdempotentRequest {
    const caller = request.user as Caller | undefined;
    const body = stringify(request.body ?? null) ?? '';
    return {
      scope: caller ? `user:${caller.id}` : `public:${request.path}`,
      key,
      path: request.path,
      fingerprint: createHmac('sha256', this.settings.fingerprintKey)
        .update(body)
        .digest('base64url'),
    };
  }
}

function isKeyInUse(error: unknown): boolean {
  return error instanceof KitError && error.code === 'idempotency_key_in_use';
}
