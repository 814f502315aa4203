import { Reflector } from '@nestjs/core';
import { methodNotAllowed } from '../errors/kit.error';
import type { Operation, ResourceDefinition } from '../metadata/definition';
import type { PathShape } from '../query/query-parameters.parser';

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

/** The route of one operation method of the resource controller: its path shape and operation. */
export interface OperationRoute {
  readonly shape: PathShape;
  /** Absent on the methods that answer every other verb (405). */
  readonly operation?: Operation;
}

/** Writes an operation route on a controller method; the resource guard reads it. */
export const ResourceOperation = Reflector.createDecorator<OperationRoute>();

/**
 * The operation of `route` that `method` asks for; 405 (with Allow) for a verb the resource
 * does not support there: HEAD, PUT and the like, or DELETE on a resource without it.
 */
export function operationOfRoute(
  definition: ResourceDefinition,
  route: OperationRoute,
  method: string,
): Operation {
  const { operation, shape } = route;
  if (operation && METHOD_OF[operation] === method && definition.operations.has(operation)) {
    return operation;
  }
  throw methodNotAllowed(method, allowedMethods(definition, shape));
}

/**
 * Makes a subclass's method the route of the base controller's operation of the same name,
 * with the base's verb, path and status, so that a team overrides one operation in a few lines.
 * A create and an update receive the body's checked `data` first: a rule on the input
 * refuses in the error envelope, and a changed copy passed to the base is checked again.
 * @example
 *   export class ReviewsController extends ResourceController(Review) {
 *     @Override()
 *     override async create(data: ResourceData, request: Request, response: Response) {
 *       if (Number(data.rating) <= 2 && String(data.body).length < 20) {
 *         throw invalidInput(['data.body needs 20 characters for a rating of 1 or 2']);
 *       }
 *       return super.create({ ...data, title: String(data.title).trim() }, request, response);
 *     }
 *   }
 */
export function Override(): MethodDecorator {
  return (target, key, descriptor) => {
    const base = (Object.getPrototypeOf(target) as Record<string | symbol, object>)[key];
    for (const name of Reflect.getOwnMetadataKeys(base) as unknown[]) {
      Reflect.defineMetadata(name, Reflect.getOwnMetadata(name, base), descriptor.value as object);
    }
  };
}
