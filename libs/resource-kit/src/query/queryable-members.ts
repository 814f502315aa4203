import type { AttributeDefinition, ResourceDefinition } from '../metadata/definition';

/** A member that filters and orders may name: a stored, readable attribute, or `id`. */
export type QueryableMember = Pick<
  AttributeDefinition,
  'name' | 'property' | 'type' | 'values' | 'nullable' | 'readableBy'
>;

const ID: QueryableMember = { name: 'id', property: 'id', type: 'string', nullable: false };

/**
 * Whether filters and orders may name this attribute: it has a column and is always readable.
 * An on-create output (a secret shown once) is not: gt and lt would read it out (SPEC 1.12).
 */
export function isQueryable(attribute: AttributeDefinition): boolean {
  return attribute.stored && attribute.output === 'always';
}

/** Looks a member up for filter[...] and order; explains why when it cannot be used. */
export function queryableMember(
  definition: ResourceDefinition,
  name: string,
): { member: QueryableMember } | { problem: string } {
  if (name === 'id') return { member: ID };
  const part = polymorphicPart(definition, name);
  if (part) return { member: part };
  const attribute = definition.attributeByName.get(name);
  if (!attribute) return { problem: `${name} is not an attribute of ${definition.type}` };
  if (attribute.output === 'never') return { problem: `${name} is write-only` };
  if (!attribute.stored)
    return { problem: `${name} is not stored, so it cannot be filtered or ordered` };
  if (attribute.output === 'on-create') {
    return {
      problem: `${name} is shown only when it is created, so it cannot be filtered or ordered`,
    };
  }
  return { member: attribute };
}

// `subject.type` and `subject.id` of a polymorphic reference `subject`.
function polymorphicPart(
  definition: ResourceDefinition,
  name: string,
): QueryableMember | undefined {
  const [base, part, ...rest] = name.split('.');
  const reference = definition.polymorphic.find((candidate) => candidate.name === base);
  if (!reference || rest.length > 0 || (part !== 'type' && part !== 'id')) return undefined;
  const property = part === 'type' ? reference.typeProperty : reference.idProperty;
  return { name, property, type: 'string', nullable: reference.nullable };
}
