import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createHmac } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import type { Caller } from '../auth/caller';
import { KitError } from '../errors/kit.error';
import type { Envelope } from '../http/answer';
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

const REPLAYED = { 'Idempotent-Replayed': 'true' };

/**
 * Idempotency-Key on POST (SPEC 1.11): the first request with a key runs and its write stores
 * the answer; a repeat gets that answer with `Idempotent-Replayed: true` and runs nothing.
 * Runs after the body is validated and the create's preparation (a log-in's password check),
 * which a repeat passes too, and before references are checked, since a repeat must not be
 * judged against today's data (the checked-out cart items are gone).
 */
@Injectable()
export class IdempotencyGate {
  private readonly logger = new Logger('ResourceKit');

  constructor(
    private readonly store: IdempotencyStore,
    @Inject(IDEMPOTENCY_SETTINGS) private readonly settings: IdempotencySettings,
    @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
  ) {}

  /**
   * Runs `create` once for the request's key; without a key, every time. A stored success is
   * answered again through `replayed`, which restores what was not stored (a token); a stored
   * conflict is thrown again.
   */
  async once(
    request: Request,
    response: Response,
    create: (claim?: Claim) => Promise<Envelope>,
    replayed: (data: Record<string, unknown>) => Promise<Record<string, unknown>>,
  ): Promise<Envelope> {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return create();
    const outcome = await this.store.claim(this.describe(request, parseIdempotencyKey(header)));
    if ('replay' in outcome) {
      const { status, body } = outcome.replay;
      const stored = body as Record<string, unknown>;
      if (status >= 300) {
        throw new KitError('conflict', stored[this.options.errorKey] as string[], REPLAYED);
      }
      response.set(REPLAYED);
      return { data: await replayed(stored.data as Record<string, unknown>) };
    }
    try {
      return await create(outcome.claim);
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
      // The database is away: the answer goes out now, and the key is freed once it is back.
      this.logger.warn(`Idempotency-Key not freed yet, trying every second: ${String(settling)}`);
      void this.store.settleLater(claim, kept ? answer : undefined);
    }
  }

  // Scoped to the caller and its tenant; without a token, to the key and the path.
  private describe(request: Request, key: string): IdempotentRequest {
    const caller = request.user as Caller | undefined;
    const body = stringify(request.body ?? null) ?? '';
    const tenant = caller?.tenant ? `tenant:${caller.tenant}:` : '';
    return {
      scope: caller ? `${tenant}user:${caller.id}` : `public:${request.path}`,
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
