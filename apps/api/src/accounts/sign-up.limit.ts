import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { consumeAll, rateLimited, RateLimiters } from './rate-limiters';

/** Sign-ups per client address (SIGNUP_MAX_PER_ADDRESS per SIGNUP_WINDOW_SECONDS). */
@Injectable()
export class SignUpLimit {
  private readonly logger = new Logger(SignUpLimit.name);
  private readonly byAddress: RateLimiterAbstract;

  constructor(@Inject(APP_CONFIG) { accountLimits }: AppConfig, limiters: RateLimiters) {
    this.byAddress = limiters.limiter({
      name: 'signup:address',
      points: accountLimits.maxSignUpsPerAddress,
      duration: accountLimits.signUpWindowSeconds,
    });
  }

  /** Counts a sign-up before its password is hashed; 429 with Retry-After past the limit. */
  async attempt(address = 'unknown'): Promise<void> {
    const refusal = await consumeAll([[this.byAddress, address]]);
    if (!refusal) return;
    this.logger.warn({
      event: 'signup_throttled',
      address,
      retry_after: refusal.retryAfterSeconds,
    });
    throw rateLimited('too many sign-ups from this address; try again later', refusal);
  }
}
