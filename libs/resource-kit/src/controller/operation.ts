import { methodNotAllowed } from '../errors/kit.error';
import type { Operation, ResourceDefinition } from '../metadata/definition';

/** The three path shapes under a resource type (SPEC 1.1). */
export type PathShape = 'collection' | 'item' | 'relationship';

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
  // A relationship path reads through its owner: the owner's read decides access.
  relationship: ['read'],
};

/** The verbs a resource answers on a path shape, for 405's Allow header. */
export function allowedMethods(definition: ResourceDefinition, shape: PathShape): string[] {
  return OPERATIONS_OF[shape]
    .filter((op) => definition.operations.has(op))
    .map((op) => METHOD_OF[op]);
}

/**
 * The operation a verb asks for on a path shape; 405 (with Allow) for a verb the resource
 * does not support there: HEAD, PUT and the like, or DELETE on a resource without it.
 */
export function operationOf(
  definition: ResourceDefinition,
  shape: PathShape,
  method: string,
): Operation {
  const operation = OPERATIONS_OF[shape].find((op) => METHOD_OF[op] === method);
  if (operation && definition.operations.has(operation)) return operation;
  throw methodNotAllowed(method, allowedMethods(definition, shape));
}
