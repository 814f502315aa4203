import type { Request } from 'express';
import { notFound } from '../errors/kit.error';

/**
 * 404 for a resource path spelled otherwise than declared, before anything else: Express
 * matches routes ignoring case and a trailing slash, but a type is exactly its path segment
 * (SPEC 1.1, 1.3). Enforced here so that it holds whatever the app's Express settings.
 */
export function assertExactPath(request: Request): void {
  const route = (request.route as { path: string }).path;
  if (!spelledAsDeclared(request.path, route)) throw notFound('no such path');
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
