import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { allowedMethods, ForResource, HandlesOperation, methodOf } from '../controller/operation';
import { methodNotAllowed } from '../errors/kit.error';

/**
 * Answers 405 (with Allow) for a verb the resource does not support on this path, before
 * authentication or validation: HEAD, PUT and the like, or DELETE on a resource without it.
 */
@Injectable()
export class OperationGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const handles = this.reflector.get(HandlesOperation, context.getHandler());
    const definition = this.reflector.get(ForResource, context.getClass());
    if (!handles || !definition) return true;
    const { method } = context.switchToHttp().getRequest<Request>();
    const { shape, operation } = handles;
    const supported =
      operation && definition.operations.has(operation) && methodOf(operation) === method;
    if (!supported) throw methodNotAllowed(method, allowedMethods(definition, shape));
    return true;
  }
}
