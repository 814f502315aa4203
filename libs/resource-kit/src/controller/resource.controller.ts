import {
  All,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Patch,
  Post,
  Req,
  Res,
  SetMetadata,
  Type,
  UseGuards,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import type { EntityClass } from '../metadata/definition';
import { readResourceDefinition } from '../metadata/definition.reader';
import { RESOURCE_ROUTE } from '../metadata/keys';
import type { Envelope } from '../http/answer';
import { ResourceOperation } from './operation';
import { ResourceHandlers } from './resource.handlers';
import { ResourceData } from './resource-data.decorator';
import { resourceCallOf, ResourceGuard } from './resource.guard';

/** The operations of a resource controller, one route method each (SPEC 1.1). */
export interface ResourceRoutes {
  list(request: Request): Promise<Envelope>;
  create(data: ResourceData, request: Request, response: Response): Promise<Envelope>;
  read(request: Request): Promise<Envelope>;
  update(data: ResourceData, request: Request): Promise<Envelope>;
  delete(request: Request): Promise<Envelope>;
  related(request: Request, response: Response): Promise<Envelope>;
}

/**
 * The base controller of a resource: `/{type}`, `/{type}/{id}` and `/{type}/{id}/{relationship}`
 * on Nest's router, one route method per operation, each returning its answer as a value
 * (`{data}`, or `{data, cursor}` for a page), so that interceptors see and may map it; the
 * output check runs on what reaches the response. Any other verb on these paths is 405. A
 * module's controller extends it, may carry guards, interceptors, filters and metadata of its
 * own, and may override one operation with `@Override()`; the kit's guard runs first. A create
 * and an update receive the body's checked `data` as their first argument (`@ResourceData()`).
 * @example
 *   @UseGuards(TenantGuard)
 *   export class OrdersController extends ResourceController(Order) {}
 *   // ResourceModule.forFeature(Order, { controller: OrdersController })
 */
export function ResourceController(entity: EntityClass): Type<ResourceRoutes> {
  let controller = controllers.get(entity);
  if (!controller) {
    controller = controllerOf(entity);
    controllers.set(entity, controller);
  }
  return controller;
}

// One base class per resource, so that `forRoutes(ResourceController(Order))` names its routes.
const controllers = new WeakMap<EntityClass, Type<ResourceRoutes>>();

function controllerOf(entity: EntityClass): Type<ResourceRoutes> {
  const { type } = readResourceDefinition(entity);
  const item = `${type}/:id`;
  const related = `${type}/:id/:relationship`;

  @Controller()
  @UseGuards(ResourceGuard)
  @SetMetadata(RESOURCE_ROUTE, type)
  class ResourceControllerOf implements ResourceRoutes {
    @Inject(ResourceHandlers) protected readonly handlers!: ResourceHandlers;

    @Get(type)
    @ResourceOperation({ shape: 'collection', operation: 'list' })
    list(@Req() request: Request): Promise<Envelope> {
      return this.handlers.list(resourceCallOf(request), request);
    }

    @Post(type)
    @HttpCode(201)
    @ResourceOperation({ shape: 'collection', operation: 'create' })
    create(
      @ResourceData() data: ResourceData,
      @Req() request: Request,
      @Res({ passthrough: true }) response: Response,
    ): Promise<Envelope> {
      return this.handlers.create(resourceCallOf(request), data, request, response);
    }

    @Get(item)
    @ResourceOperation({ shape: 'item', operation: 'read' })
    read(@Req() request: Request): Promise<Envelope> {
      return this.handlers.read(resourceCallOf(request), request);
    }

    @Patch(item)
    @ResourceOperation({ shape: 'item', operation: 'update' })
    update(@ResourceData() data: ResourceData, @Req() request: Request): Promise<Envelope> {
      return this.handlers.update(resourceCallOf(request), data, request);
    }

    @Delete(item)
    @ResourceOperation({ shape: 'item', operation: 'delete' })
    delete(@Req() request: Request): Promise<Envelope> {
      return this.handlers.delete(resourceCallOf(request), request);
    }

    @Get(related)
    // A relationship path reads through its owner: the owner's read decides access.
    @ResourceOperation({ shape: 'relationship', operation: 'read' })
    related(
      @Req() request: Request,
      @Res({ passthrough: true }) response: Response,
    ): Promise<Envelope> {
      return this.handlers.related(resourceCallOf(request), request, response);
    }

    // Every other verb on the three paths: the guard answers 405 with Allow.
    @All(type)
    @ResourceOperation({ shape: 'collection' })
    otherOnCollection(): never {
      throw new Error('the resource guard answers other verbs');
    }

    @All(item)
    @ResourceOperation({ shape: 'item' })
    otherOnItem(): never {
      throw new Error('the resource guard answers other verbs');
    }

    @All(related)
    @ResourceOperation({ shape: 'relationship' })
    otherOnRelationship(): never {
      throw new Error('the resource guard answers other verbs');
    }
  }
  Object.defineProperty(ResourceControllerOf, 'name', {
    value: `ResourceController(${entity.name})`,
  });
  return ResourceControllerOf;
}
