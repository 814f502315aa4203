import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { RESOURCE_ROUTE } from '../metadata/keys';
import { ResourceRegistry } from '../service/resource-registry';

interface Route {
  readonly controller: string;
  readonly where: string;
  readonly method: string;
  readonly path: string;
  /** The resource type, for a route of a resource controller. */
  readonly resource?: string;
  /** An operation method without a route: overridden without `@Override()`. */
  readonly lost?: boolean;
}

// The route methods of the base resource controller (resource.controller.ts).
const OPERATIONS = new Set(['list', 'create', 'read', 'update', 'delete', 'related']);

/**
 * Refuses to start when a route would take a resource's paths (SPEC 1.1 allows exactly three
 * under a type): a team route under a resource type or with a parameter for its first segment,
 * a resource controller under a path of its own, two controllers for one resource. Express
 * would otherwise answer such a path with whichever route came first, silently.
 */
@Injectable()
export class ResourceRoutesCheck implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly registry: ResourceRegistry,
  ) {}

  onApplicationBootstrap(): void {
    const types = new Set(this.registry.definitions().map((definition) => definition.type));
    const routes = this.routes();
    const problems = routes.flatMap((route) => problemOf(route, types));
    const served = routes.filter((route) => route.resource !== undefined);
    for (const type of types) {
      const controllers = new Set(
        served.filter((route) => route.resource === type).map((route) => route.controller),
      );
      if (controllers.size > 1) {
        problems.push(
          `${type} is served by more than one controller: ${[...controllers].join(', ')}`,
        );
      }
    }
    if (problems.length > 0) {
      throw new Error(`Routes that would take resource paths:\n  - ${problems.join('\n  - ')}`);
    }
  }

  private routes(): Route[] {
    return this.discovery.getControllers().flatMap(({ metatype }) => {
      if (!metatype) return [];
      const read = <T>(key: string | symbol, target: object) =>
        this.reflector.get<T | undefined>(key, target as () => void);
      const prefixes = asList(read<string | string[]>(PATH_METADATA, metatype));
      const resource = read<string>(RESOURCE_ROUTE, metatype);
      const prototype = metatype.prototype as Record<string, object>;
      return this.scanner.getAllMethodNames(prototype).flatMap((name) => {
        const handler = prototype[name];
        const paths = read<string | string[]>(PATH_METADATA, handler);
        if (paths === undefined) {
          // An operation method overridden without @Override() has lost its route.
          if (resource === undefined || !OPERATIONS.has(name)) return [];
          return [
            {
              controller: metatype.name,
              where: `${metatype.name}.${name}`,
              method: '',
              path: '',
              resource,
              lost: true,
            },
          ];
        }
        const method = RequestMethod[read<number>(METHOD_METADATA, handler)!];
        return prefixes.flatMap((prefix) =>
          asList(paths).map((path) => ({
            controller: metatype.name,
            where: `${metatype.name}.${name}`,
            method,
            path: joinPath(prefix, path),
            resource,
          })),
        );
      });
    });
  }
}

function problemOf(route: Route, types: ReadonlySet<string>): string[] {
  if (route.lost) {
    return [
      `${route.where} overrides an operation without @Override(), so it would have no route: add @Override() to keep the operation's verb and path`,
    ];
  }
  const [first, ...rest] = route.path.split('/');
  if (route.resource !== undefined) {
    const expected = [route.resource, ':id', ':relationship'].slice(0, rest.length + 1).join('/');
    if (route.path === expected) return [];
    return [`${route.where} serves /${route.path}: a resource controller takes no path of its own`];
  }
  const under = types.has(first)
    ? `under the resource type ${first}`
    : /^[:*(]/.test(first)
      ? 'whose first segment would match every resource type'
      : undefined;
  if (!under) return [];
  return [
    `${route.where} routes ${route.method} /${route.path}, ${under}: a resource has only /{type}, /{type}/{id} and /{type}/{id}/{relationship} (add behaviour through the resource's hooks, or serve it elsewhere)`,
  ];
}

function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [''];
  return Array.isArray(value) ? value : [value];
}

function joinPath(...parts: string[]): string {
  return parts
    .flatMap((part) => part.split('/'))
    .filter((segment) => segment !== '')
    .join('/');
}
