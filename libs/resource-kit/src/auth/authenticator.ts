import { Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import passport from 'passport';
import { KitError } from '../errors/kit.error';
import type { AccessLevel } from '../metadata/definition';
import { ADMIN_ROLE, type Caller } from './caller';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };
// Registered by StaticTokenStrategy and JwtStrategy; static tokens are tried first.
const STRATEGIES = ['static-token', 'jwt'];

/**
 * The caller of an operation with the given access level: public needs no token (a valid one
 * still identifies the caller, a bad one is ignored), others a valid bearer token (401), admin
 * an administrator (403). Passport runs only when a token is sent. A token that could not be
 * checked (the session lookup failed) is an error for the exception handling (503), never 401
 * and never a silently anonymous caller.
 */
@Injectable()
export class Authenticator {
  private readonly logger = new Logger('ResourceKit');

  async callerOf(
    request: Request,
    response: Response,
    level: AccessLevel | undefined,
  ): Promise<Caller | undefined> {
    if (request.headers.authorization === undefined) {
      assertPermitted(level, undefined);
      return undefined;
    }
    const caller = await verify(request, response);
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

function verify(request: Request, response: Response): Promise<Caller | false> {
  return new Promise((resolve, reject) => {
    const authenticate = passport.authenticate(
      STRATEGIES,
      { session: false },
      (error: Error | null, caller: Caller | false) => (error ? reject(error) : resolve(caller)),
    ) as (request: Request, response: Response, next: (error?: unknown) => void) => void;
    authenticate(request, response, reject);
  });
}

function unauthenticated(message: string): KitError {
  return new KitError('unauthenticated', [message], CHALLENGE);
}
