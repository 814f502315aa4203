import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { consumeAll, rateLimited, RateLimiters } from './rate-limiters';

const COUNTERS = ['email and address', 'address', 'email'] as const;

/**
 * Throttles log-ins (SPEC 1.12). Every attempt takes a point, before the password is checked,
 * from three counters: the email from this address (failures here never lock the owner out
 * from elsewhere), the address whatever the email, and the email from anywhere, whose short
 * window slows an attacked account down without locking it. A success gives its points back.
 */
@Injectable()
export class LoginThrottle {
  private readonly logger = new Logger(LoginThrottle.name);
  private readonly counters: readonly RateLimiterAbstract[];

  constructor(@Inject(APP_CONFIG) { accountLimits: limits }: AppConfig, limiters: RateLimiters) {
    const window = limits.loginWindowSeconds;
    this.counters = [
      limiters.limiter({
        name: 'login:pair',
        points: limits.maxFailuresPerEmailAndAddress,
        duration: window,
      }),
      limiters.limiter({
        name: 'login:address',
        points: limits.maxFailuresPerAddress,
        duration: window,
      }),
      limiters.limiter({
        name: 'login:email',
        points: limits.maxFailuresPerEmail,
        duration: limits.emailWindowSeconds,
      }),
    ];
  }

  /** Counts an attempt; 429 with Retry-After when any counter is spent. */
  async attempt(email: string, address: string | undefined): Promise<void> {
    const refusal = await consumeAll(this.keyed(email, address));
    if (!refusal) return;
    this.logger.warn({
      event: 'login_throttled',
      by: refusal.spent.map((index) => COUNTERS[index]),
      email_domain: emailDomain(email),
      address,
      retry_after: refusal.retryAfterSeconds,
    });
    throw rateLimited('too many failed logins; try again later', refusal);
  }

  /** Logs a failed attempt (it stays counted); `userId` when the email is a user's. */
  failed(email: string, address: string | undefined, userId: string | undefined): void {
    this.logger.warn({
      event: 'login_failed',
      user_id: userId ?? null,
      email_domain: emailDomain(email),
      address,
    });
  }

  /** A successful log-in: its attempt did not fail, and this address starts afresh. */
  async succeeded(email: string, address: string | undefined): Promise<void> {
    const [pair, byAddress, byEmail] = this.keyed(email, address);
    await Promise.all([
      pair[0].delete(pair[1]),
      byAddress[0].reward(byAddress[1]),
      byEmail[0].reward(byEmail[1]),
    ]);
  }

  private keyed(email: string, address = 'unknown'): [RateLimiterAbstract, string][] {
    const key = email.toLowerCase();
    const [pair, byAddress, byEmail] = this.counters;
    return [
      [pair, `${key} ${address}`],
      [byAddress, address],
      [byEmail, key],
    ];
  }
}

// Enough to see an attack on one provider or company, without writing addresses to the log.
function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
