import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import type { Strategy } from 'passport';
import { KitError } from '../errors/kit.error';
import type { AccessLevel } from '../metadata/definition';
import { ADMIN_ROLE, type Caller } from './caller';
import { JwtStrategy } from './jwt.strategy';
import { StaticTokenStrategy } from './static-token.strategy';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

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
    const caller = await this.verify(request);
    if (!caller) {
      // A security event for the operator: someone presents a token that does not hold.
      this.logger.warn({ event: 'token_refused', address: request.ip });
      if (level === 'public') return undefined;
      throw unauthenticated('the bearer token is invalid, expired or revoked');
    }
    assertPermitted(level, caller);
    // Where the request log finds who asked.
    request.user = caller;
    return caller;
  }

  // The strategies in order, as passport.authenticate(names, { session: false }, callback)
  // runs them: the first success is the caller, an error rejects, all failing is false.
  private async verify(request: Request): Promise<Caller | false> {
    for (const Attempt of this.attempts) {
      const caller = await new Promise<Caller | false>((settle, reject) =>
        new Attempt(settle, reject).authenticate(request, { session: false }),
      );
      if (caller) return caller;
    }
    return false;
  }
}

/** One authentication of a request by a passport strategy: the strategy's actions, settled. */
interface Attempt {
  authenticate(request: Request, options: { session: false }): void;
  success(caller: Caller): void;
  fail(): void;
  error(error: unknown): void;
  pass(): void;
  redirect(): void;
}

type AttemptOn = new (
  settle: (caller: Caller | false) => void,
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
    settle: (caller: Caller | false) => void,
    reject: (error: unknown) => void,
  ): void {
    this.success = settle;
    this.error = reject;
    // A bad token fails; these strategies neither pass nor redirect, and either is no caller.
    this.fail = this.pass = this.redirect = () => settle(false);
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
