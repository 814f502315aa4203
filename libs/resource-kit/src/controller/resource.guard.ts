import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { assertPermitted, Authenticator } from '../auth/authenticator';
import type { Caller } from '../auth/caller';
import { notFound } from '../errors/kit.error';
import { isPrivate, NO_STORE } from '../http/cache-control';
import { deprecationHeadersOf } from '../http/deprecation-headers';
import { JsonBodyReader } from '../http/json-body.reader';
import type { Operation } from '../metadata/definition';
import { RESOURCE_ROUTE } from '../metadata/keys';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { operationOfRoute, ResourceOperation, type OperationRoute } from './operation';
import { decodePathSegment } from './resource-path.parser';
import { ResourceRegistry } from '../service/resource-registry';
import type { RegisteredResource } from '../service/registered-resource';

/** A resource request once its resource, operation and caller are known. */
export interface ResourceCall {
  readonly service: RegisteredResource;
  readonly operation: Operation;
  readonly id?: string;
  readonly relationship?: string;
  readonly caller?: Caller;
}

const CALL = Symbol('resource-kit:call');

type ResourceRequest = Request & { [CALL]?: ResourceCall };

/** The call the guard admitted; the resource controller answers it. */
export function resourceCallOf(request: Request): ResourceCall {
  const call = (request as ResourceRequest)[CALL];
  if (!call) throw new Error('a resource route ran without ResourceGuard');
  return call;
}

/**
 * The kit's guard on every resource controller, first among the controller's guards: takes the
 * resource from the controller and the operation from the route method (Nest's metadata),
 * answers a verb the resource does not support with 405, then authenticates the caller for
 * its access level (401, 403), and reads the JSON body of a create or an update (415, 413, a
 * malformed body: 400). A team's guards on the controller or a method run after it and see the
 * caller and `request.body`; the route method receives the body's validated `data` through
 * `@ResourceData()`. Routing is Express's, which ignores case and a trailing slash: the path
 * must name the type exactly as declared (`/Products` names nothing, SPEC 1.3).
 */
@Injectable()
export class ResourceGuard implements CanActivate {
  private readonly prefix: string;
  private readonly bases = new Map<string, string>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly authenticator: Authenticator,
    private readonly reflector: Reflector,
    private readonly body: JsonBodyReader,
    @Inject(RESOURCE_KIT_OPTIONS) options: ResolvedKitOptions,
  ) {
    this.prefix = options.basePath.endsWith('/') ? options.basePath.slice(0, -1) : options.basePath;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<ResourceRequest>();
    const response = http.getResponse<Response>();
    const type = this.reflector.get<string>(RESOURCE_ROUTE, context.getClass());
    const route = this.reflector.get(ResourceOperation, context.getHandler());
    const segments = segmentsOf(request, this.baseOf(type), route);
    const service = this.registry.serviceOfType(type)!;
    const { definition } = service;
    const operation = operationOfRoute(definition, route, request.method);
    if (isPrivate(definition, operation)) response.set(NO_STORE);
    const level = definition.access.get(operation);
    const [id, relationship] = segments;
    const admit = (caller: Caller | undefined): true | Promise<true> => {
      request[CALL] = { service, operation, id, relationship, caller };
      if (operation === 'create') {
        // A deprecated creation says so in every answer it gives once admitted (SPEC 1.9).
        response.set(deprecationHeadersOf(definition));
      } else if (operation !== 'update') {
        return true;
      }
      return this.body.read(request, response).then(() => true);
    };
    // Without a token the caller is known at once: no promise for Nest to wait on.
    if (request.headers.authorization === undefined) {
      assertPermitted(level, undefined);
      return admit(undefined);
    }
    return this.authenticator.callerOf(request, level).then(admit);
  }

  // A resource's path (`/products`), made once per resource.
  private baseOf(type: string): string {
    let base = this.bases.get(type);
    if (!base) {
      base = `${this.prefix}/${type}`;
      this.bases.set(type, base);
    }
    return base;
  }
}

// The id and relationship as written after `/{type}` (percent-decoded); 404 unless the path
// names the type exactly, with no trailing slash.
function segmentsOf(request: Request, base: string, route: OperationRoute): string[] {
  const { path } = request;
  if (!path.startsWith(base) || path.endsWith('/')) throw notFound('no such path');
  if (route.shape === 'collection') return [];
  return path
    .slice(base.length + 1)
    .split('/')
    .map(decodePathSegment);
}
