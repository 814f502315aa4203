import { Column, Index } from 'typeorm';
import type { PolymorphicDefinition } from '../metadata/definition';
import { RESOURCE_POLYMORPHIC } from '../metadata/keys';
import { snakeCase } from '../metadata/naming';
import { ID_COLUMN } from '../metadata/definition';

/** The wire and in-memory form of a polymorphic reference. */
export interface PolymorphicReference {
  type: string;
  id: string;
}

/**
 * Declares a read-only polymorphic reference: `subject` is `{type, id}` on the wire and the
 * columns `subject_type` and `subject_id` (indexed together) in the table. The property
 * reads and writes those two columns.
 * @example
 *   @Polymorphic() subject!: PolymorphicReference;
 */
export function Polymorphic(
  options: { nullable?: boolean; description?: string } = {},
): PropertyDecorator {
  return (prototype, key) => {
    const property = String(key);
    const reference: PolymorphicDefinition = {
      name: property,
      description: options.description,
      property,
      typeProperty: `${property}Type`,
      idProperty: `${property}Id`,
      nullable: options.nullable ?? false,
    };
    const inherited = (Reflect.getMetadata(RESOURCE_POLYMORPHIC, prototype) ??
      []) as PolymorphicDefinition[];
    Reflect.defineMetadata(RESOURCE_POLYMORPHIC, [...inherited, reference], prototype);
    const column = snakeCase(property);
    Column({ type: 'varchar', length: 100, name: `${column}_type`, nullable: reference.nullable })(
      prototype,
      reference.typeProperty,
    );
    Column({ ...ID_COLUMN, name: `${column}_id`, nullable: reference.nullable })(
      prototype,
      reference.idProperty,
    );
    Index([reference.typeProperty, reference.idProperty])(prototype.constructor);
    Object.defineProperty(prototype, property, {
      get(this: Record<string, string | null>): PolymorphicReference | null {
        const type = this[reference.typeProperty];
        const id = this[reference.idProperty];
        return type == null || id == null ? null : { type, id };
      },
      set(this: Record<string, string | null>, value: PolymorphicReference | null) {
        this[reference.typeProperty] = value?.type ?? null;
        this[reference.idProperty] = value?.id ?? null;
      },
    });
  };
}
