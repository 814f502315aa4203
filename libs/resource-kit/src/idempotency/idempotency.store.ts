import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, EntityManager, IsNull, LessThan } from 'typeorm';
import { KitError } from '../errors/kit.error';
import { databaseFailure } from '../persistence/database-errors';
import { TransactionRunner } from '../persistence/transaction.runner';
import { IdempotencyKey } from './idempotency-key.entity';

/** A POST with an Idempotency-Key: who sent it, where, and the hash of its body. */
export interface IdempotentRequest {
  readonly scope: string;
  readonly key: string;
  readonly path: string;
  readonly fingerprint: string;
}

/** A request that holds its key; only it may store the key's answer. */
export interface Claim extends IdempotentRequest {
  readonly token: string;
  readonly expiresAt: Date;
}

export interface StoredAnswer {
  readonly status: number;
  readonly body: unknown;
}

export const IDEMPOTENCY_SETTINGS = Symbol('IDEMPOTENCY_SETTINGS');
export interface IdempotencySettings {
  /** How long a key and its answer are kept. */
  readonly keyTtlSeconds: number;
  /** HMAC key for request fingerprints (bodies may hold passwords). */
  readonly fingerprintKey: string;
}

// A claim outlives any request the service lets run; past it, its request is taken as dead.
const CLAIM_LEASE_MS = 60_000;
const SWEEP_INTERVAL_MS = 15 * 60_000;

// How often a key whose request failed while the database was away is tried to be freed.
const RESETTLE_MS = 1_000;

const inUse = () =>
  new KitError(
    'idempotency_key_in_use',
    ['a request with this Idempotency-Key is still being processed; retry later'],
    { 'Retry-After': '1' },
  );

/** The table of Idempotency-Keys, shared by every instance of the service through its database. */
@Injectable()
export class IdempotencyStore implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ResourceKit');
  private sweeper?: NodeJS.Timeout;
  private stopping = false;
  /** Claims of this instance's requests that ended but whose keys are not freed yet. */
  private readonly unsettled = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    @Inject(IDEMPOTENCY_SETTINGS) private readonly settings: IdempotencySettings,
  ) {}

  /** Claims the key for this request, or gives the answer an earlier request with it got. */
  async claim(request: IdempotentRequest): Promise<{ claim: Claim } | { replay: StoredAnswer }> {
    const token = randomUUID();
    try {
      return await this.transactions.run((manager) => this.claimIn(manager, request, token));
    } catch (error) {
      const failure = databaseFailure(error)?.status;
      // Another request inserted the same key a moment ago: it is running.
      if (failure === 409) throw inUse();
      // The connection died, perhaps after the claim committed: freed once the database is back.
      if (failure === 503) void this.settleLater({ ...request, token, expiresAt: new Date() });
      throw error;
    }
  }

  /**
   * Stores the answer of a claimed request, in the transaction of its write, so that the write
   * and its answer exist together or not at all. `bound` ends the answer's life early.
   */
  async complete(
    manager: EntityManager,
    claim: Claim,
    answer: StoredAnswer,
    bound: { resourceId: string; expiresAt?: Date },
  ): Promise<void> {
    const expiresAt = new Date(
      Math.min(claim.expiresAt.getTime(), bound.expiresAt?.getTime() ?? Infinity),
    );
    const stored = await this.store(manager, claim, answer, {
      resourceId: bound.resourceId,
      expiresAt,
    });
    // The claim was taken over (this request outlived its lease): this write must not happen.
    if (!stored) throw inUse();
  }

  /** After a failure: keeps the answer worth replaying (a conflict), else frees the key. */
  async settle(claim: Claim, kept: StoredAnswer | undefined): Promise<void> {
    await this.transactions.run(async (manager) => {
      if (kept) await this.store(manager, claim, kept);
      else await manager.getRepository(IdempotencyKey).delete(this.heldBy(claim));
    });
  }

  /**
   * `settle`, tried again every second in the background, when it failed because the database
   * was away (a failover, say). Meanwhile a retry with the key that reaches this instance
   * takes the claim over at once (its request is known to have ended without storing an
   * answer); one that reaches another instance gets 409 only until the database answers
   * again, not until the claim's lease ends. Gives up when that lease would have ended.
   */
  async settleLater(claim: Claim, kept?: StoredAnswer): Promise<void> {
    const giveUpAt = Date.now() + CLAIM_LEASE_MS;
    this.unsettled.add(claim.token);
    try {
      while (!this.stopping && Date.now() < giveUpAt) {
        await sleep(RESETTLE_MS, undefined, { ref: false });
        try {
          return await this.settle(claim, kept);
        } catch {
          // Still away: the next second.
        }
      }
    } finally {
      this.unsettled.delete(claim.token);
    }
  }

  /** Deletes the answers that created this resource (a session's token dies with it). */
  async forget(manager: EntityManager, resourceId: string): Promise<void> {
    await manager.getRepository(IdempotencyKey).delete({ resourceId });
  }

  /** Deletes every expired key. */
  async sweep(): Promise<void> {
    await this.dataSource.getRepository(IdempotencyKey).delete({ expiresAt: LessThan(new Date()) });
  }

  onApplicationBootstrap(): void {
    this.sweeper = setInterval(() => {
      this.sweep().catch((error: Error) =>
        this.logger.warn(`Could not delete expired idempotency keys: ${error.message}`),
      );
    }, SWEEP_INTERVAL_MS).unref();
  }

  onApplicationShutdown(): void {
    this.stopping = true;
    clearInterval(this.sweeper);
  }

  private async claimIn(
    manager: EntityManager,
    request: IdempotentRequest,
    token: string,
  ): Promise<{ claim: Claim } | { replay: StoredAnswer }> {
    const keys = manager.getRepository(IdempotencyKey);
    const now = new Date();
    const found = await keys.findOneBy({ scope: request.scope, key: request.key });
    const ended = (claimToken: string) => this.unsettled.has(claimToken);
    const replay =
      found && found.expiresAt > now ? earlierAnswer(found, request, now, ended) : undefined;
    if (replay) return { replay };
    const claim: Claim = {
      ...request,
      token,
      expiresAt: new Date(now.getTime() + this.settings.keyTtlSeconds * 1000),
    };
    const row = {
      ...request,
      claim: claim.token,
      expiresAt: claim.expiresAt,
      lockedUntil: new Date(now.getTime() + CLAIM_LEASE_MS),
      status: null,
      body: null,
      resourceId: null,
    };
    if (!found) {
      await keys.insert(row);
      return { claim };
    }
    // Expired, or left by a request that died: take it over, unless another request just did.
    const taken = await keys.update(
      { scope: found.scope, key: found.key, claim: found.claim },
      row,
    );
    if (!taken.affected) throw inUse();
    return { claim };
  }

  private async store(
    manager: EntityManager,
    claim: Claim,
    answer: StoredAnswer,
    extra: Partial<Pick<IdempotencyKey, 'resourceId' | 'expiresAt'>> = {},
  ): Promise<boolean> {
    const { affected } = await manager.getRepository(IdempotencyKey).update(this.heldBy(claim), {
      status: answer.status,
      body: JSON.stringify(answer.body),
      lockedUntil: null,
      ...extra,
    });
    return affected === 1;
  }

  // The key's row while this claim still holds it and nothing is stored yet.
  private heldBy(claim: Claim) {
    return { scope: claim.scope, key: claim.key, claim: claim.token, status: IsNull() };
  }
}

// What a live key says to a new request with it: 422 for another request, the stored answer,
// 409 while its request runs, or nothing when that request died (its claim lapsed) or is
// known to have ended with nothing stored (`ended`: this instance's, the database then away).
function earlierAnswer(
  found: IdempotencyKey,
  request: IdempotentRequest,
  now: Date,
  ended: (claim: string) => boolean,
): StoredAnswer | undefined {
  if (found.path !== request.path || found.fingerprint !== request.fingerprint) {
    throw new KitError('idempotency_key_reused', [
      `this Idempotency-Key was used for another request (POST ${found.path} with another body); use a new key`,
    ]);
  }
  if (found.status !== null)
    return { status: found.status, body: JSON.parse(found.body!) as unknown };
  if (found.lockedUntil && found.lockedUntil > now && !ended(found.claim)) throw inUse();
  return undefined;
}
