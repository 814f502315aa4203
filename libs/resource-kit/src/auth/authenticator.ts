import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import type { Strategy } from 'passport';
import { KitError } from '../errors/kit.error';
import type { AccessLevel } from '../metadata/definition';
import { ADMIN_ROLE, type Caller } from './caller';
import { JwtStrategy } from './jwt.strategy';
import { StaticTokenStrategy } from './static-token.strategy';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };
const BEARER = /^Bearer +\S/i;
const EXPIRED = 'the bearer token has expired';
const INVALID = 'the bearer token is invalid or revoked';

/**
 * The caller of an operation with the given access level: public needs no token (a valid one
 * still identifies the caller, a bad one is ignored), others a valid bearer token (401), admin
 * an administrator (403). The strategies run only when a token is sent. A token that could not be
 * checked (the session lookup failed) is an error for the exception handling (503), never 401
 * and never a silently anonymous caller.
 */
@Injectable()
export class Authenticator {
  private readonly logger = new Logger('ResourceKit');
  // Static tokens are tried first.
  private readonly attempts: AttemptOn[];

  constructor(staticTokens: StaticTokenStrategy, jwt: JwtStrategy) {
    this.attempts = [staticTokens, jwt].map(attemptOn);
  }

  /** The caller a request's bearer token names; the guard asks only when a token is sent. */
  async callerOf(request: Request, level: AccessLevel | undefined): Promise<Caller | undefined> {
    // An Authorization header without a bearer token is no token: the bare challenge.
    if (!BEARER.test(request.headers.authorization ?? '')) {
      assertPermitted(level, undefined);
      return undefined;
    }
    const { caller, expired } = await this.verify(request);
    if (!caller) {
      // A security event for the operator: someone presents a token that does not hold.
      this.logger.warn({ event: 'token_refused', address: request.ip });
      if (level === 'public') return undefined;
      throw invalidToken(expired ? EXPIRED : INVALID);
    }
    assertPermitted(level, caller);
    // Where the request log finds who asked.
    request.user = caller;
    return caller;
  }

  // The strategies in order, as passport.authenticate(names, { session: false }, callback)
  // runs them: the first success is the caller, an error rejects; when all fail, whether one
  // failed for the token's expiry (passport-jwt passes jsonwebtoken's error to `fail`).
  private async verify(request: Request): Promise<{ caller?: Caller; expired: boolean }> {
    let expired = false;
    for (const Attempt of this.attempts) {
      const outcome = await new Promise<Outcome>((settle, reject) =>
        new Attempt(settle, reject).authenticate(request, { session: false }),
      );
      if ('caller' in outcome) return { caller: outcome.caller, expired: false };
      expired ||= (outcome.failure as { name?: unknown } | undefined)?.name === 'TokenExpiredError';
    }
    return { expired };
  }
}

/** How one strategy's attempt ended: a caller, or a failure (with the strategy's reason). */
type Outcome = { caller: Caller } | { failure: unknown };

/** One authentication of a request by a passport strategy: the strategy's actions, settled. */
interface Attempt {
  authenticate(request: Request, options: { session: false }): void;
  success(caller: Caller): void;
  fail(failure?: unknown): void;
  error(error: unknown): void;
  pass(): void;
  redirect(): void;
}

type AttemptOn = new (
  settle: (outcome: Outcome) => void,
  reject: (error: unknown) => void,
) => Attempt;

/**
 * The attempts of `strategy`, as passport makes them: an object whose prototype is the
 * strategy, with the actions its `authenticate` calls. passport.authenticate() makes each with
 * Object.create(strategy) and then adds the actions; under load V8 kept such objects, and the
 * request and response they reach, through its young collections (a request with a token
 * promoted 1.7 MB to the old generation per young collection, against 0.06 MB made by this
 * constructor: docs/performance.md, "Memory").
 */
function attemptOn(strategy: Strategy): AttemptOn {
  function StrategyAttempt(
    this: Attempt,
    settle: (outcome: Outcome) => void,
    reject: (error: unknown) => void,
  ): void {
    this.success = (caller) => settle({ caller });
    this.error = reject;
    this.fail = (failure) => settle({ failure });
    // These strategies neither pass nor redirect; either is no caller.
    this.pass = this.redirect = () => settle({ failure: undefined });
  }
  StrategyAttempt.prototype = strategy;
  return StrategyAttempt as unknown as AttemptOn;
}

/** Whether `caller` may use an operation of this access level: 401 without a caller, 403. */
export function assertPermitted(level: AccessLevel | undefined, caller: Caller | undefined): void {
  if (level === 'public') return;
  if (!caller) {
    throw unauthenticated('authentication required: send Authorization: Bearer <token>');
  }
  if (level === 'admin' && caller.role !== ADMIN_ROLE) {
    throw new KitError('forbidden', ['this operation is for administrators']);
  }
}

function unauthenticated(message: string): KitError {
  return new KitError('unauthenticated', [message], CHALLENGE);
}

// RFC 6750 3.1: a token was sent and does not hold.
function invalidToken(message: string): KitError {
  return new KitError('unauthenticated', [message], {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${message}"`,
  });
}
