import { SetMetadata } from '@nestjs/common';
import type { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';

/** A provider's method that carries a decorator's metadata, bound to its instance. */
export interface MarkedMethod<T, M> {
  readonly instance: object;
  readonly name: string;
  readonly method: M;
  readonly marks: T;
}

/**
 * The methods of every provider instance that carry `key`'s metadata (a method decorator's),
 * each bound to its instance. A provider aliased (useExisting) is listed by Nest once more; its
 * methods are found once.
 */
export function markedMethods<T, M extends (...args: never[]) => unknown>(
  { discovery, scanner, reflector }: Discovery,
  key: symbol,
): MarkedMethod<T, M>[] {
  const instances = new Set<unknown>(
    discovery.getProviders().map(({ instance }): unknown => instance),
  );
  const found: MarkedMethod<T, M>[] = [];
  for (const instance of instances) {
    if (!instance || typeof instance !== 'object') continue;
    const prototype = Object.getPrototypeOf(instance) as Record<string, M>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const marks = reflector.get<T | undefined>(key, prototype[name]);
      if (marks) found.push({ instance, name, method: prototype[name].bind(instance) as M, marks });
    }
  }
  return found;
}

/** What `markedMethods` reads: Nest's discovery, its method scanner and its reflector. */
export interface Discovery {
  readonly discovery: DiscoveryService;
  readonly scanner: MetadataScanner;
  readonly reflector: Reflector;
}

/** The methods a provider class declares with `key`'s metadata, for documents made from code. */
export function markedMethodsOf<T>(
  provider: abstract new (...args: never[]) => unknown,
  key: symbol,
): { method: string; marks: T }[] {
  const prototype = provider.prototype as Record<string, object>;
  return Object.getOwnPropertyNames(prototype).flatMap((method) => {
    const found = Object.getOwnPropertyDescriptor(prototype, method)?.value as object | undefined;
    const marks = (found && Reflect.getMetadata(key, found)) as T | undefined;
    return marks ? [{ method, marks }] : [];
  });
}

/** A method decorator that adds `mark` to the method's list under `key`. */
export function addMark<T>(key: symbol, mark: T): MethodDecorator {
  return (target, property, descriptor) => {
    const method = descriptor.value as object;
    const marks = (Reflect.getMetadata(key, method) ?? []) as T[];
    return SetMetadata(key, [...marks, mark])(target, property, descriptor);
  };
}
