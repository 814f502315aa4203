import { Reflector } from '@nestjs/core';
import { methodNotAllowed } from '../errors/kit.error';
import type { Operation, ResourceDefinition } from '../metadata/definition';

/** The three path shapes under a resource type. */
export type PathShape = 'collection' | 'item' | 'relationship';

/** Marks a generated handler with the shape of its path and, unless a fallback, its operation. */
export const HandlesOperation = Reflector.createDecorator<{
  shape: PathShape;
  operation?: Operation;
}>();
/** Marks a generated controller class with its resource. */
export const ForResource = Reflector.createDecorator<ResourceDefinition>();

const METHOD_OF: Readonly<Record<Operation, string>> = {
  list: 'GET',
  create: 'POST',
  read: 'GET',
  update: 'PATCH',
  delete: 'DELETE',
};

const OPERATIONS_OF: Readonly<Record<PathShape, readonly Operation[]>> = {
  collection: ['list', 'create'],
  item: ['read', 'update', 'delete'],
  relationship: ['read'],
};

/** The verbs a resource answers on a path shape, for 405's Allow header. */
export function allowedMethods(definition: ResourceDefinition, shape: PathShape): string[] {
  return OPERATIONS_OF[shape]
    .filter((op) => definition.operations.has(op))
    .map((op) => METHOD_OF[op]);
}

/**
 * 405 (with Allow) for a verb the resource does not support on this path: HEAD, PUT and the
 * like, or DELETE on a resource without it.
 */
export function assertSupported(
  definition: ResourceDefinition,
  { shape, operation }: { shape: PathShape; operation?: Operation },
  method: string,
): void {
  const supported =
    operation && definition.operations.has(operation) && METHOD_OF[operation] === method;
  if (!supported) throw methodNotAllowed(method, allowedMethods(definition, shape));
}
