import type { EntityClass, ToManyDefinition } from './definition';

/**
 * A to-many side declared by the resource that holds the key (`@ToOne(() => User, { inverse:
 * { name: 'orders' } })` on orders): the target serves it as if it had declared it, without
 * importing the declaring resource, so that one domain can relate its resources to another's
 * without the other depending on it (SPEC 1.18).
 */
interface InverseDeclaration {
  readonly target: () => EntityClass;
  readonly name: string;
  readonly source: EntityClass;
  readonly inverse: string;
  readonly description?: string;
}

const declared: InverseDeclaration[] = [];

export function declareInverse(declaration: InverseDeclaration): void {
  declared.push(declaration);
}

/**
 * The to-many sides other resources declare on `entity`, in the order their modules were
 * loaded. Read when the service starts, after every module is: targets resolve only then.
 */
export function inversesOf(entity: EntityClass): ToManyDefinition[] {
  return declared
    .filter((declaration) => declaration.target() === entity)
    .map(({ name, source, inverse, description }) =>
      Object.freeze({ name, target: () => source, inverse, description }),
    );
}
