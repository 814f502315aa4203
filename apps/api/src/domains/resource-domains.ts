import { Inject, Injectable, OnApplicationBootstrap, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { Module } from '@nestjs/core/injector/module';
import { ResourceService } from '@app/resource-kit';
import type { Domain } from './domain';

/** A domain's Nest module, which carries its declaration. */
export type DomainModule = Type & { readonly declaration: Domain };

export const DOMAIN_MODULES = Symbol('DOMAIN_MODULES');

/** The domain of a route that serves no resource: the operations endpoints, /metrics. */
const NO_DOMAIN = 'none';

/**
 * Which domain serves each resource type, read from the booted domain modules, so that log
 * lines, spans and request metrics can name the domain of a request (SPEC 1.18).
 */
@Injectable()
export class ResourceDomains implements OnApplicationBootstrap {
  private readonly byType = new Map<string, string>();
  private readonly byRoute = new Map<string, string>();

  constructor(
    private readonly modules: ModulesContainer,
    @Inject(DOMAIN_MODULES) private readonly domains: readonly DomainModule[],
  ) {}

  onApplicationBootstrap(): void {
    for (const domain of this.domains) {
      const module = [...this.modules.values()].find(({ metatype }) => metatype === domain);
      for (const type of module ? resourceTypesUnder(module) : []) {
        this.byType.set(type, domain.declaration.name);
      }
    }
  }

  /** The domain of a route template (`/orders/:id`): that of the first resource type in it. */
  ofRoute(route: string): string {
    let domain = this.byRoute.get(route);
    if (domain === undefined) {
      const type = route.split('/').find((segment) => this.byType.has(segment));
      domain = type === undefined ? NO_DOMAIN : this.byType.get(type)!;
      // Route templates are few (the routes Nest knows): the cache stays small.
      this.byRoute.set(route, domain);
    }
    return domain;
  }
}

// The types of the resource services a module and the modules it imports provide. Global
// modules are left out: Nest adds them to every module's imports, and the platform's holds
// every domain.
function resourceTypesUnder(module: Module, seen = new Set<Module>()): string[] {
  if (seen.has(module) || module.isGlobal) return [];
  seen.add(module);
  const own = [...module.providers.values()]
    .map(({ instance }): unknown => instance)
    .filter((instance): instance is ResourceService => instance instanceof ResourceService)
    .map((service) => service.definition.type);
  return [...own, ...[...module.imports].flatMap((imported) => resourceTypesUnder(imported, seen))];
}
