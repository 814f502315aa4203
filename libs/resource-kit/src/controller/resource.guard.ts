import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { assertPermitted, Authenticator } from '../auth/authenticator';
import type { Caller } from '../auth/caller';
import { notFound } from '../errors/kit.error';
import { isPrivate, NO_STORE } from '../http/cache-control';
import type { Operation } from '../metadata/definition';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { operationOf } from './operation';
import { decodePathSegment, parseResourcePath, type ResourcePath } from './resource-path.parser';
import { ResourceRegistry } from './resource-registry';
import type { ResourceService } from './resource.service';

/** A resource request once its path, operation and caller are known. */
export interface ResourceCall {
  readonly service: ResourceService;
  readonly path: ResourcePath;
  readonly operation: Operation;
  readonly id?: string;
  readonly caller?: Caller;
}

const CALL = Symbol('resource-kit:call');
const ROUTE = Symbol('resource-kit:route');

type ResourceRequest = Request & { [CALL]?: ResourceCall; [ROUTE]?: string };

/** The route template a resource request was served under (`/products/:id`), for logs and metrics. */
export function resourceRouteOf(request: Request): string | undefined {
  return (request as ResourceRequest)[ROUTE];
}

/** The call the guard admitted; the resource controller answers it. */
export function resourceCallOf(request: Request): ResourceCall {
  const call = (request as ResourceRequest)[CALL];
  if (!call) throw new Error('a resource route ran without ResourceGuard');
  return call;
}

/**
 * The kit's guard on every resource controller, first among the controller's guards: reads the
 * path once (exactly the three shapes of SPEC 1.1, as written: `/Products` names nothing), picks
 * the operation from the verb (405), then authenticates the caller for its access level (401,
 * 403). A team's guards on the controller or a method run after it and see `request.user`.
 */
@Injectable()
export class ResourceGuard implements CanActivate {
  private readonly prefix: string;
  private readonly templates = new Map<string, Record<ResourcePath['shape'], string>>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly authenticator: Authenticator,
    @Inject(RESOURCE_KIT_OPTIONS) options: ResolvedKitOptions,
  ) {
    this.prefix = options.basePath.endsWith('/') ? options.basePath.slice(0, -1) : options.basePath;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<ResourceRequest>();
    const path = parseResourcePath(request.url, this.prefix, this.isType);
    if (!path) throw notFound('no such path');
    request[ROUTE] = this.templatesOf(path.type)[path.shape];
    const service = this.registry.serviceOfType(path.type)!;
    const { definition } = service;
    const operation = operationOf(definition, path.shape, request.method);
    const id = path.id === undefined ? undefined : decodePathSegment(path.id);
    const response = http.getResponse<Response>();
    if (isPrivate(definition, operation)) response.set(NO_STORE);
    const level = definition.access.get(operation);
    const admit = (caller: Caller | undefined): true => {
      request[CALL] = { service, path, operation, id, caller };
      return true;
    };
    // Without a token the caller is known at once: no promise for Nest to wait on.
    if (request.headers.authorization === undefined) {
      assertPermitted(level, undefined);
      return admit(undefined);
    }
    return this.authenticator.callerOf(request, level).then(admit);
  }

  private readonly isType = (segment: string): boolean =>
    this.registry.serviceOfType(segment) !== undefined;

  // Read once per type: a request only looks its route template up.
  private templatesOf(type: string): Record<ResourcePath['shape'], string> {
    let templates = this.templates.get(type);
    if (!templates) {
      const collection = `${this.prefix}/${type}`;
      templates = {
        collection,
        item: `${collection}/:id`,
        relationship: `${collection}/:id/:relationship`,
      };
      this.templates.set(type, templates);
    }
    return templates;
  }
}
