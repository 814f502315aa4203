import { All, Controller, Inject, Req, Res, SetMetadata, Type, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { EntityClass } from '../metadata/definition';
import { readResourceDefinition } from '../metadata/definition.reader';
import { RESOURCE_ROUTE } from '../metadata/keys';
import { ResourceHandlers } from './resource.handlers';
import { resourceCallOf, ResourceGuard } from './resource.guard';

/** What every resource controller serves: the three path shapes of SPEC 1.1, every verb. */
export interface ResourceRoutes {
  collection(request: Request, response: Response): Promise<void>;
  item(request: Request, response: Response): Promise<void>;
  relationship(request: Request, response: Response): Promise<void>;
}

/**
 * The base controller of a resource: `/{type}`, `/{type}/{id}` and `/{type}/{id}/{relationship}`
 * on Nest's router, one route per path shape whatever the verb (405 for one the resource does
 * not support). A module's controller extends it and may carry guards, interceptors, filters
 * and metadata of its own; the kit's guard runs first among the controller's guards.
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

  @Controller()
  @UseGuards(ResourceGuard)
  class ResourceControllerOf implements ResourceRoutes {
    @Inject(ResourceHandlers) private readonly handlers!: ResourceHandlers;

    @All(type)
    @SetMetadata(RESOURCE_ROUTE, type)
    collection(@Req() request: Request, @Res() response: Response): Promise<void> {
      return this.handlers.answer(resourceCallOf(request), request, response);
    }

    @All(`${type}/:id`)
    @SetMetadata(RESOURCE_ROUTE, type)
    item(@Req() request: Request, @Res() response: Response): Promise<void> {
      return this.handlers.answer(resourceCallOf(request), request, response);
    }

    @All(`${type}/:id/:relationship`)
    @SetMetadata(RESOURCE_ROUTE, type)
    relationship(@Req() request: Request, @Res() response: Response): Promise<void> {
      return this.handlers.answer(resourceCallOf(request), request, response);
    }
  }
  Object.defineProperty(ResourceControllerOf, 'name', {
    value: `ResourceController(${entity.name})`,
  });
  return ResourceControllerOf;
}
