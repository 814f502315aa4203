import type { RequestContext } from './request-context';
import type { ResourceRegistry } from './resource-registry';
import { invalidInput } from '../errors/kit.error';
import type { ResourceDefinition } from '../metadata/definition';
import type { ResourceInput } from '../validation/input.parser';

/**
 * The second half of input validation, after the shape (SPEC 1.4): every reference must name
 * a resource that exists and that the caller can see, else 400 naming each one. The reference
 * a row is owned through (SPEC 1.15) must name a parent the caller may write: one it owns, for
 * a caller other than an administrator, whatever the parent's read access.
 */
export async function assertReferencesVisible(
  definition: ResourceDefinition,
  input: ResourceInput,
  context: RequestContext,
  registry: ResourceRegistry,
): Promise<void> {
  const checks = definition.attributes
    .filter((attribute) => attribute.reference && isPresent(input.get(attribute.property)))
    .map(async (attribute) => {
      const target = registry.serviceOf(attribute.reference!.target());
      const value = input.get(attribute.property);
      const ids = Array.isArray(value) ? (value as string[]) : [value as string];
      const [through, ...ownerPath] = definition.owner?.split('.') ?? [];
      const ownedThrough = through === attribute.property && ownerPath.length > 0;
      const visible = await target.visibleIds(ids, context, ownedThrough ? ownerPath : undefined);
      const kind = ownedThrough ? ' you may write' : '';
      return ids
        .filter((id) => !visible.has(id))
        .map(
          (id) =>
            `data.${attribute.name} refers to no ${target.definition.type} resource${kind}` +
            (Array.isArray(value) ? ` (${id})` : ''),
        );
    });
  const problems = (await Promise.all(checks)).flat();
  if (problems.length > 0) throw invalidInput(problems);
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}
