import { ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { ForResource, HandlesOperation } from '../controller/operation';
import { KitError } from '../errors/kit.error';
import type { AccessLevel } from '../metadata/definition';
import { ADMIN_ROLE, type Caller } from './caller';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

/**
 * Applies each operation's declared access level: public operations need no token (a valid
 * one still identifies the caller), others a valid bearer token (401 otherwise), admin
 * operations an administrator (403 otherwise). Static tokens are tried before JWTs.
 */
@Injectable()
export class AccessGuard extends AuthGuard(['static-token', 'jwt']) {
  private readonly logger = new Logger('ResourceKit');

  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const level = this.levelOf(context);
    if (!level) return true;
    const request = context.switchToHttp().getRequest<Request>();
    if (level === 'public' && !request.headers.authorization) return true;
    try {
      await super.canActivate(context);
    } catch (error) {
      // A bad token on a public operation is ignored; a token that could not be checked
      // (the session lookup failed) is not, so the caller is never silently anonymous.
      if (level === 'public' && isUnauthenticated(error)) return true;
      throw error;
    }
    if (level === 'admin' && (request.user as Caller).role !== ADMIN_ROLE) {
      throw new KitError('forbidden', ['this operation is for administrators']);
    }
    return true;
  }

  override handleRequest<T>(
    error: unknown,
    caller: T | false,
    _info: unknown,
    context: ExecutionContext,
  ): T {
    // An error is not a verdict on the token but a failed check (an unreachable database):
    // the exception filter answers it (503 with Retry-After), never 401.
    if (error) throw error as Error;
    if (!caller) {
      const request = context.switchToHttp().getRequest<Request>();
      const { authorization } = request.headers;
      // A security event for the operator: someone presents a token that does not hold.
      if (authorization) this.logger.warn({ event: 'token_refused', address: request.ip });
      const message = authorization
        ? 'the bearer token is invalid, expired or revoked'
        : 'authentication required: send Authorization: Bearer <token>';
      throw new KitError('unauthenticated', [message], CHALLENGE);
    }
    return caller;
  }

  private levelOf(context: ExecutionContext): AccessLevel | undefined {
    const handles = this.reflector.get(HandlesOperation, context.getHandler());
    const definition = this.reflector.get(ForResource, context.getClass());
    if (!handles?.operation || !definition) return undefined;
    return definition.access.get(handles.operation);
  }
}

function isUnauthenticated(error: unknown): boolean {
  return error instanceof KitError && error.code === 'unauthenticated';
}
