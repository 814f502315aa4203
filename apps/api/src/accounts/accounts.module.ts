import { Module } from '@nestjs/common';
import { LoginThrottle } from './login.throttle';
import { PasswordHasher } from './password.hasher';
import { RateLimiters } from './rate-limiters';
import { SignUpLimit } from './sign-up.limit';

/**
 * What guards the accounts (SPEC 1.12): one password hasher (one bounded queue) and the
 * rate limits of log-in and sign-up, shared by the users and sessions resources.
 */
@Module({
  providers: [PasswordHasher, RateLimiters, LoginThrottle, SignUpLimit],
  exports: [PasswordHasher, LoginThrottle, SignUpLimit],
})
export class AccountsModule {}
