import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { claimOf } from '../idempotency/idempotency.interceptor';
import type { RequestContext } from './request-context';

/** The request's context; the auth layer puts the caller on `request.user`. */
export function requestContextOf(request: Request): RequestContext {
  const caller = (request as Request & { user?: RequestContext['caller'] }).user;
  const ifMatch = request.headers['if-match'];
  const idempotency = claimOf(request);
  return {
    ...(caller && { caller }),
    clientAddress: request.ip,
    ...(ifMatch !== undefined && { ifMatch }),
    ...(idempotency && { idempotency }),
  };
}

export const Context = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): RequestContext =>
    requestContextOf(ctx.switchToHttp().getRequest<Request>()),
);
