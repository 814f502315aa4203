import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { KitError } from '@app/resource-kit';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig, LoginThrottleConfig } from '../../config/app-config';

/**
 * Counts failed logins per email and per client address (LOGIN_* settings); past a limit,
 * 429 with Retry-After. Counters live in Redis when REDIS_URL is set (shared by every
 * instance), in memory otherwise.
 */
@Injectable()
export class LoginThrottle implements OnApplicationShutdown {
  private readonly logger = new Logger(LoginThrottle.name);
  private readonly redis?: Redis;
  private readonly limits: LoginThrottleConfig;
  private readonly byEmail: RateLimiterAbstract;
  private readonly byAddress: RateLimiterAbstract;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limits = config.loginThrottle;
    this.redis = config.redisUrl ? this.connect(config.redisUrl) : undefined;
    this.byEmail = this.limiter('login:email', this.limits.maxFailuresPerEmail);
    this.byAddress = this.limiter('login:address', this.limits.maxFailuresPerAddress);
  }

  /** Refuses (429) while either counter is exhausted. */
  async assertAllowed(email: string, address: string | undefined): Promise<void> {
    const [byEmail, byAddress] = await Promise.all([
      this.byEmail.get(email.toLowerCase()),
      address ? this.byAddress.get(address) : null,
    ]);
    const blocked = [
      { counter: 'email', state: byEmail, limit: this.limits.maxFailuresPerEmail },
      { counter: 'address', state: byAddress, limit: this.limits.maxFailuresPerAddress },
    ].filter(({ state, limit }) => state !== null && state.consumedPoints >= limit);
    if (blocked.length === 0) return;
    const waitMs = Math.max(...blocked.map(({ state }) => state!.msBeforeNext));
    const retryAfter = Math.ceil(waitMs / 1000);
    this.logger.warn({
      event: 'login_throttled',
      by: blocked.map(({ counter }) => counter),
      email_domain: emailDomain(email),
      address,
      retry_after: retryAfter,
    });
    throw new KitError('rate_limited', ['too many failed logins; try again later'], {
      'Retry-After': String(retryAfter),
    });
  }

  /** Counts a failed login and logs it; `userId` when the email is a user's (wrong password). */
  async recordFailure(
    email: string,
    address: string | undefined,
    userId: string | undefined,
  ): Promise<void> {
    this.logger.warn({
      event: 'login_failed',
      user_id: userId ?? null,
      email_domain: emailDomain(email),
      address,
    });
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
    const options = { keyPrefix, points, duration: this.limits.windowSeconds };
    if (!this.redis) return new RateLimiterMemory(options);
    return new RateLimiterRedis({
      ...options,
      storeClient: this.redis,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  }
}

// Enough to see an attack on one provider or company, without writing addresses to the log.
function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
