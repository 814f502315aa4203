import { DynamicModule, Module, ModuleMetadata, Provider, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ResourceController, type ResourceRoutes } from './controller/resource.controller';
import { RESOURCE_DEFINITION } from './service/resource-reads';
import { ResourceService } from './service/resource.service';
import type { EntityClass } from './metadata/definition';
import { readResourceDefinition } from './metadata/definition.reader';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from './resource-kit.options';

export interface ResourceFeature {
  /** The resource's behaviour beyond CRUD: a ResourceService subclass with hooks. */
  service?: Type<ResourceService>;
  /** Providers the service depends on, registered (and exported) beside it. */
  providers?: Provider[];
  /** Modules whose exported providers the service depends on. */
  imports?: ModuleMetadata['imports'];
  /**
   * The resource's controller: a class extending `ResourceController(entity)`, with guards,
   * interceptors, filters or metadata of its own. By default, the base controller itself.
   */
  controller?: Type<ResourceRoutes>;
}

/** Puts one declared resource on the wire: its controller on Nest's router, its service. */
@Module({})
export class ResourceModule {
  /**
   * @example
   *   @Module({ imports: [ResourceModule.forFeature(Widget)] })
   *   export class WidgetsModule {}
   */
  static forFeature(entity: EntityClass, feature: ResourceFeature = {}): DynamicModule {
    const service = feature.service ?? ResourceService;
    return {
      module: ResourceModule,
      imports: [TypeOrmModule.forFeature([entity as Type]), ...(feature.imports ?? [])],
      controllers: [feature.controller ?? ResourceController(entity)],
      providers: [
        service,
        ...(feature.providers ?? []),
        {
          provide: RESOURCE_DEFINITION,
          inject: [RESOURCE_KIT_OPTIONS],
          useFactory: (options: ResolvedKitOptions) =>
            readResourceDefinition(entity, options.keyCasing),
        },
      ],
      exports: [service, ...(feature.providers ?? [])],
    };
  }
}
