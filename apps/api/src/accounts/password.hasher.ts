import { Inject, Injectable } from '@nestjs/common';
import { KitError } from '@app/resource-kit';
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import pLimit, { type LimitFunction } from 'p-limit';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

const derive = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
  options: object,
) => Promise<Buffer>;

const KEY_LENGTH = 64;
// scrypt needs 128 * N * r bytes; the limit leaves room above the largest cost allowed.
const maxmemFor = (N: number, r: number) => 256 * N * r;

/** A hash no password matches: the static accounts, which log in with their token only. */
export const NO_PASSWORD = '!';

/** Whether a password matched, and whether its hash should be rewritten at today's cost. */
export interface Verification {
  readonly valid: boolean;
  readonly outdated: boolean;
}

/**
 * scrypt password hashes, `scrypt$N$r$p$salt$key`, so that older parameters keep verifying.
 * Hashes run a few at a time (each holds 128 MiB at N=2^17); a bounded number wait, and past
 * that the request is 503 with Retry-After rather than a queue that grows without end.
 */
@Injectable()
export class PasswordHasher {
  private readonly cost: { N: number; r: number; p: number };
  private readonly limit: LimitFunction;
  private readonly queue: number;
  // Compared against when there is no password to check, so that every failure takes as long.
  private readonly decoy: Promise<string>;

  constructor(@Inject(APP_CONFIG) { passwordHash }: AppConfig) {
    this.cost = { N: 2 ** passwordHash.cost, r: 8, p: 1 };
    this.limit = pLimit(passwordHash.concurrency);
    this.queue = passwordHash.queue;
    this.decoy = this.encode(randomBytes(16).toString('hex'));
    this.decoy.catch(() => undefined);
  }

  hash(password: string): Promise<string> {
    return this.queued(() => this.encode(password));
  }

  /**
   * Checks `password` against `stored`; with no stored hash (unknown email, static account)
   * against a decoy, so that the answer takes the same time whatever the reason.
   */
  async verify(password: string, stored: string | undefined): Promise<Verification> {
    const known = stored !== undefined && stored !== NO_PASSWORD;
    const [scheme, N, r, p, salt, key] = (known ? stored : await this.decoy).split('$');
    if (scheme !== 'scrypt' || !key) return { valid: false, outdated: false };
    const cost = { N: Number(N), r: Number(r), p: Number(p) };
    const expected = Buffer.from(key, 'base64');
    const actual = await this.queued(() =>
      derive(password, Buffer.from(salt, 'base64'), expected.length, {
        ...cost,
        maxmem: maxmemFor(cost.N, cost.r),
      }),
    );
    const valid = known && timingSafeEqual(actual, expected);
    return { valid, outdated: valid && (cost.N !== this.cost.N || cost.r !== this.cost.r) };
  }

  private async encode(password: string): Promise<string> {
    const { N, r, p } = this.cost;
    const salt = randomBytes(16);
    const key = await derive(password, salt, KEY_LENGTH, { N, r, p, maxmem: maxmemFor(N, r) });
    return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  private queued<T>(work: () => Promise<T>): Promise<T> {
    if (this.limit.pendingCount >= this.queue) {
      return Promise.reject(
        new KitError('unavailable', ['too many passwords are being checked; retry shortly'], {
          'Retry-After': '1',
        }),
      );
    }
    return this.limit(work);
  }
}
