import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Authenticator } from '../auth/authenticator';
import type { Caller } from '../auth/caller';
import { writeAnswer, writeFailure, type Answer } from '../http/answer';
import { isPrivate, NO_STORE } from '../http/cache-control';
import { describeFailure } from '../http/exception.filter';
import type { Operation } from '../metadata/definition';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { operationOf } from './operation';
import { ResourceHandlers } from './resource.handlers';
import { decodePathSegment, parseResourcePath, type ResourcePath } from './resource-path.parser';
import { ResourceRegistry } from './resource-registry';
import type { ResourceService } from './resource.service';

const ROUTE = Symbol('resource-kit:route');

type RoutedRequest = Request & { [ROUTE]?: string };

/** The route template a resource request was served under (`/products/:id`), for logs and metrics. */
export function resourceRouteOf(request: Request): string | undefined {
  return (request as RoutedRequest)[ROUTE];
}

/**
 * Serves every declared resource on the three path shapes of SPEC 1.1, as one middleware: the
 * path is read once, its verb picks the operation (405 first), then the caller is
 * authenticated (401, 403) and the operation runs as plain calls, down to the written answer.
 * Nest's per-route machinery (guards, rxjs interceptors, parameter pipes) cost more than a
 * whole read does here (docs/performance.md); every other path goes on to Nest's routes.
 */
@Injectable()
export class ResourceRouter {
  private readonly logger = new Logger('ResourceKit');
  private readonly prefix: string;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly authenticator: Authenticator,
    private readonly handlers: ResourceHandlers,
    @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
  ) {
    this.prefix = options.basePath.endsWith('/') ? options.basePath.slice(0, -1) : options.basePath;
  }

  /** Express middleware: serves a resource path, passes anything else on. */
  readonly handle = (request: Request, response: Response, next: NextFunction): void => {
    const path = parseResourcePath(request.url, this.prefix, this.isType);
    if (!path) return next();
    (request as RoutedRequest)[ROUTE] = this.templateOf(path);
    this.serve(request, response, path).catch((error: unknown) => this.fail(response, error));
  };

  private readonly isType = (segment: string): boolean =>
    this.registry.serviceOfType(segment) !== undefined;

  private async serve(request: Request, response: Response, path: ResourcePath): Promise<void> {
    const service = this.registry.serviceOfType(path.type)!;
    const { definition } = service;
    const operation = operationOf(definition, path.shape, request.method);
    const id = path.id === undefined ? undefined : decodePathSegment(path.id);
    if (isPrivate(definition, operation)) response.set(NO_STORE);
    const caller = await this.authenticator.callerOf(
      request,
      response,
      definition.access.get(operation),
    );
    const answer = await this.answer(service, operation, path, id, caller, request, response);
    writeAnswer(request, response, answer);
  }

  private answer(
    service: ResourceService,
    operation: Operation,
    path: ResourcePath,
    id: string | undefined,
    caller: Caller | undefined,
    request: Request,
    response: Response,
  ): Promise<Answer> {
    const call = { service, request, response, caller };
    if (path.relationship !== undefined) {
      return this.handlers.related({ ...call, id: id!, relationship: path.relationship });
    }
    switch (operation) {
      case 'list':
        return this.handlers.list(call);
      case 'create':
        return this.handlers.create(call);
      case 'read':
        return this.handlers.read({ ...call, id: id! });
      case 'update':
        return this.handlers.update({ ...call, id: id! });
      case 'delete':
        return this.handlers.remove({ ...call, id: id! });
    }
  }

  private fail(response: Response, error: unknown): void {
    const failure = describeFailure(error);
    if (failure.status >= 500) {
      this.logger.error(error instanceof Error ? error.stack : String(error));
    }
    writeFailure(response, failure, this.options.errorKey);
  }

  private templateOf({ shape, type }: ResourcePath): string {
    const collection = `${this.prefix}/${type}`;
    if (shape === 'collection') return collection;
    return shape === 'item' ? `${collection}/:id` : `${collection}/:id/:relationship`;
  }
}
