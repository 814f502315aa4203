import { ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { assertSupported, ForResource, HandlesOperation, PathShape } from '../controller/operation';
import { KitError } from '../errors/kit.error';
import { assertExactPath } from '../http/exact-path';
import type { AccessLevel, Operation, ResourceDefinition } from '../metadata/definition';
import { ADMIN_ROLE, type Caller } from './caller';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

/** What a resource handler serves, read from its metadata once. */
interface Route {
  readonly definition: ResourceDefinition;
  readonly handles: { readonly shape: PathShape; readonly operation?: Operation };
  readonly level?: AccessLevel;
}

/**
 * The one guard of resource routes, in this order: 404 for a path not spelled as declared;
 * 405 (with Allow) for a verb the resource does not support on this path, before
 * authentication or validation; then the operation's declared access level: public needs no
 * token (a valid one still identifies the caller), others a valid bearer token (401), admin
 * an administrator (403). Static tokens are tried before JWTs; passport runs only when a
 * token is sent.
 */
@Injectable()
export class AccessGuard extends AuthGuard(['static-token', 'jwt']) {
  private readonly logger = new Logger('ResourceKit');
  private readonly routes = new WeakMap<object, Route | null>();

  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.routeOf(context);
    if (!route) return true;
    const request = context.switchToHttp().getRequest<Request>();
    assertExactPath(request);
    assertSupported(route.definition, route.handles, request.method);
    const { level } = route;
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

  private routeOf(context: ExecutionContext): Route | null {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (route === undefined) {
      const handles = this.reflector.get(HandlesOperation, handler);
      const definition = this.reflector.get(ForResource, context.getClass());
      const level = handles?.operation && definition?.access.get(handles.operation);
      route = handles && definition ? { definition, handles, level } : null;
      this.routes.set(handler, route);
    }
    return route;
  }
}

function isUnauthenticated(error: unknown): boolean {
  return error instanceof KitError && error.code === 'unauthenticated';
}
