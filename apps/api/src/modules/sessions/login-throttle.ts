import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { KitError } from '@app/resource-kit';
import Redis from 'ioredis';
import {
  RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

// Failed logins allowed per window, per email and per client address.
const WINDOW_SECONDS = 15 * 60;
const FAILURES_PER_EMAIL = 5;
const FAILURES_PER_ADDRESS = 20;

/**
 * Counts failed logins per email and per client address; past the limit, 429 with
 * Retry-After. Counters live in Redis when REDIS_URL is set (shared by every instance),
 * in memory otherwise.
 */
@Injectable()
export class LoginThrottle implements OnApplicationShutdown {
  private readonly logger = new Logger(LoginThrottle.name);
  private readonly redis?: Redis;
  private readonly byEmail: RateLimiterAbstract;
  private readonly byAddress: RateLimiterAbstract;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.redis = config.redisUrl ? this.connect(config.redisUrl) : undefined;
    this.byEmail = this.limiter('login:email', FAILURES_PER_EMAIL);
    this.byAddress = this.limiter('login:address', FAILURES_PER_ADDRESS);
  }

  /** Refuses (429) while either counter is exhausted. */
  async assertAllowed(email: string, address: string | undefined): Promise<void> {
    const states = await Promise.all([
      this.byEmail.get(email.toLowerCase()),
      address ? this.byAddress.get(address) : null,
    ]);
    const blocked = states.filter((state, index): state is RateLimiterRes => {
      const limit = index === 0 ? FAILURES_PER_EMAIL : FAILURES_PER_ADDRESS;
      return state !== null && state.consumedPoints >= limit;
    });
    if (blocked.length === 0) return;
    const retryAfter = Math.ceil(Math.max(...blocked.map((state) => state.msBeforeNext)) / 1000);
    throw new KitError('rate_limited', ['too many failed logins; try again later'], {
      'Retry-After': String(retryAfter),
    });
  }

  async recordFailure(email: string, address: string | undefined): Promise<void> {
    await Promise.all([
      this.byEmail.penalty(email.toLowerCase()),
      address ? this.byAddress.penalty(address) : undefined,
    ]);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.byEmail.delete(email.toLowerCase());
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
      if (!down)
        this.logger.warn(`Redis unavailable, counting failed logins in memory: ${error.message}`);
      down = true;
    });
    redis.on('ready', () => (down = false));
    return redis;
  }

  // With Redis unreachable, counting goes on in memory rather than failing logins.
  private limiter(keyPrefix: string, points: number): RateLimiterAbstract {
    const options = { keyPrefix, points, duration: WINDOW_SECONDS };
    if (!this.redis) return new RateLimiterMemory(options);
    return new RateLimiterRedis({
      ...options,
      storeClient: this.redis,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  }
}
