import type { ResourceDefinition } from './definition';
import { readResourceDefinition } from './definition.reader';

/**
 * What is wrong with a resource's `owner`, if anything: a property, or a path to one through
 * to-one references (`orderId.userId`: the order's `userId`), each naming a declared resource.
 */
export function ownerPathProblem(definition: ResourceDefinition): string | undefined {
  if (!definition.owner) return undefined;
  const path = definition.owner.split('.');
  let current = definition;
  for (const [i, property] of path.entries()) {
    const attribute = current.attributes.find((candidate) => candidate.property === property);
    if (!attribute && property !== 'id') {
      return `owner ${definition.owner}: ${current.type} has no attribute ${property}`;
    }
    if (i === path.length - 1) return undefined;
    if (!attribute?.reference || attribute.type === 'ids') {
      return `owner ${definition.owner}: ${property} of ${current.type} is not a to-one reference`;
    }
    current = readResourceDefinition(attribute.reference.target());
  }
  return undefined;
}
