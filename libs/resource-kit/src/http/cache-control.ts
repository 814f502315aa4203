import type { Operation, ResourceDefinition } from '../metadata/definition';

/** Caches, shared or the browser's, keep nothing of the answer. */
export const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Whether an operation's answers carry a caller's private data or a secret, and so are sent
 * with `Cache-Control: no-store` (SPEC 1.12): every operation that is not public, and a public
 * creation of a resource that belongs to someone (signing up) or that answers on-create
 * outputs (a log-in's token).
 */
export function isPrivate(definition: ResourceDefinition, operation: Operation): boolean {
  if (definition.access.get(operation) !== 'public') return true;
  return (
    operation === 'create' &&
    (definition.owner !== undefined ||
      definition.attributes.some((attribute) => attribute.output === 'on-create'))
  );
}
