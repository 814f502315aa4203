import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ForResource } from '../controller/operation';
import { notFound } from '../errors/kit.error';

/**
 * Answers 404 for a resource path spelled otherwise than declared, before anything else:
 * Express matches routes ignoring case and a trailing slash, but a type is exactly its path
 * segment (SPEC 1.1, 1.3). Enforced here so that it holds whatever the app's Express settings.
 */
@Injectable()
export class ExactPathGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.reflector.get(ForResource, context.getClass())) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const route = (request.route as { path: string }).path;
    if (!spelledAsDeclared(request.path, route)) throw notFound('no such path');
    return true;
  }
}

// As many segments as the route (so no trailing slash), and its literal ones exactly.
function spelledAsDeclared(path: string, route: string): boolean {
  const given = path.split('/');
  const declared = route.split('/');
  return (
    given.length === declared.length &&
    declared.every((segment, index) => segment.startsWith(':') || segment === given[index])
  );
}
