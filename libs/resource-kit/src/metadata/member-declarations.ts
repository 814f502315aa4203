import type { AttributeDefinition } from './definition';
import { RESOURCE_MEMBERS } from './keys';

/**
 * What @Attribute and @ToOne record for one property; the reader turns it into a definition
 * (adding the wire name, and `required` and `writable` in their final form).
 */
export interface MemberDeclaration extends Omit<
  AttributeDefinition,
  'name' | 'required' | 'writable'
> {
  readonly optional: boolean;
  readonly writable: boolean | 'create' | 'patch';
}

// Members are kept per class; a subclass starts from a copy of its parent's list.
export function recordMember(prototype: object, member: MemberDeclaration): void {
  const inherited = (Reflect.getMetadata(RESOURCE_MEMBERS, prototype) ?? []) as MemberDeclaration[];
  const own = inherited.filter((existing) => existing.property !== member.property);
  Reflect.defineMetadata(RESOURCE_MEMBERS, [...own, member], prototype);
}

/** The members declared on an entity class (and inherited), in declaration order. */
export function declaredMembers(entity: {
  readonly prototype: object;
}): readonly MemberDeclaration[] {
  return (Reflect.getMetadata(RESOURCE_MEMBERS, entity.prototype) ?? []) as MemberDeclaration[];
}
