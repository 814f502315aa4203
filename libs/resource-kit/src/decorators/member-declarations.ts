import type { AttributeType, EntityClass, Visibility } from '../metadata/definition';
import { RESOURCE_MEMBERS } from '../metadata/keys';

/** What @Attribute and @ToOne record for one property; the reader turns it into a definition. */
export interface MemberDeclaration {
  readonly property: string;
  readonly type: AttributeType;
  readonly values?: readonly string[];
  readonly format?: 'email';
  readonly optional: boolean;
  readonly nullable: boolean;
  readonly writable: boolean | 'create' | 'patch';
  readonly output: Visibility;
  readonly stored: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly min?: number;
  readonly max?: number;
  readonly reference?: { relationship: string; target: () => EntityClass };
}

// Members are kept per class; a subclass starts from a copy of its parent's list.
export function recordMember(prototype: object, member: MemberDeclaration): void {
  const inherited = (Reflect.getMetadata(RESOURCE_MEMBERS, prototype) ?? []) as MemberDeclaration[];
  const own = inherited.filter((existing) => existing.property !== member.property);
  Reflect.defineMetadata(RESOURCE_MEMBERS, [...own, member], prototype);
}
