import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { KitError } from '@app/resource-kit';
import Redis from 'ioredis';
import {
  RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** One counter of a limiter: `points` within `duration` seconds, per key. */
export interface LimitSpec {
  readonly name: string;
  readonly points: number;
  readonly duration: number;
}

/**
 * Rate limiters on rate-limiter-flexible, in Redis when REDIS_URL is set (shared by every
 * instance), else in memory; with Redis unreachable, counting goes on in memory rather than
 * failing requests.
 */
@Injectable()
export class RateLimiters implements OnApplicationShutdown {
  private readonly logger = new Logger(RateLimiters.name);
  private readonly redis?: Redis;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.redis = config.redisUrl ? this.connect(config.redisUrl) : undefined;
  }

  limiter({ name, points, duration }: LimitSpec): RateLimiterAbstract {
    const options = { keyPrefix: name, points, duration };
    if (!this.redis) return new RateLimiterMemory(options);
    return new RateLimiterRedis({
      ...options,
      storeClient: this.redis,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  }

  // After the HTTP server has drained, like the database.
  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }

  private connect(url: string): Redis {
    const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    // ioredis reconnects by itself; say so once per outage instead of crashing or spamming.
    let down = false;
    redis.on('error', (error: Error) => {
      if (!down) this.logger.warn(`Redis unavailable, counting in memory: ${error.message}`);
      down = true;
    });
    redis.on('ready', () => (down = false));
    return redis;
  }
}

/** The counters that were spent, and how long until all of them allow again. */
export interface Refusal {
  readonly spent: readonly number[];
  readonly retryAfterSeconds: number;
}

/**
 * Takes a point from every counter at once, before the work it limits, so that parallel
 * requests cannot all pass a check made before any of them is counted. Answers which counters
 * (by index) were already spent, if any.
 */
export async function consumeAll(
  counters: readonly (readonly [RateLimiterAbstract, string])[],
): Promise<Refusal | undefined> {
  const outcomes = await Promise.allSettled(counters.map(([limiter, key]) => limiter.consume(key)));
  const refusals = new Map<number, RateLimiterRes>();
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') return;
    if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason;
    refusals.set(index, outcome.reason);
  });
  if (refusals.size === 0) return undefined;
  const waitMs = Math.max(...[...refusals.values()].map((refusal) => refusal.msBeforeNext));
  return { spent: [...refusals.keys()], retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** 429 with Retry-After (SPEC 1.8). */
export function rateLimited(message: string, { retryAfterSeconds }: Refusal): KitError {
  return new KitError('rate_limited', [message], { 'Retry-After': String(retryAfterSeconds) });
}
