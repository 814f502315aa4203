import { DynamicModule, Module } from '@nestjs/common';
import { HealthController } from './operations/health.controller';

/** Options a service gives the kit once, in its root module. */
export interface ResourceKitOptions {
  /** Path prefix of every resource route, e.g. "/" or "/api". */
  basePath: string;
}

export const RESOURCE_KIT_OPTIONS = Symbol('RESOURCE_KIT_OPTIONS');

@Module({})
export class ResourceKitModule {
  static forRoot(options: ResourceKitOptions): DynamicModule {
    return {
      module: ResourceKitModule,
      global: true,
      controllers: [HealthController],
      providers: [{ provide: RESOURCE_KIT_OPTIONS, useValue: Object.freeze({ ...options }) }],
      exports: [RESOURCE_KIT_OPTIONS],
    };
  }
}
