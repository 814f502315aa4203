import { Column, Index, JoinColumn, ManyToOne } from 'typeorm';
import { ID_COLUMN, type EntityClass } from '../metadata/definition';
import { snakeCase } from '../metadata/naming';
import { declareInverse } from '../metadata/inverse-relationships';
import { recordMember } from '../metadata/member-declarations';

export interface ToOneOptions {
  /** What the relationship means: the OpenAPI document shows it on the `*_id` property. */
  description?: string;
  /** `true` (default), `'create'` or `false` (read-only, set by the service). */
  writable?: boolean | 'create';
  optional?: boolean;
  nullable?: boolean;
  /** What the database does to this row when the target is deleted (default: refuse). */
  onDelete?: 'CASCADE' | 'RESTRICT' | 'SET NULL';
  /** `false` for a reference without a foreign key (the target may go, the id stays). */
  foreignKey?: boolean;
  /**
   * The to-many side on the target, declared here by the resource that holds the key:
   * `{ name: 'orders' }` on an order's `userId` serves GET /users/{id}/orders, its filters and
   * ownership paths, as a `toMany` entry on users would, without users importing orders.
   */
  inverse?: { name: string; description?: string };
}

/**
 * Declares a to-one relationship on its id property: `cartId` is `cart_id` on the wire, and
 * GET /{type}/{id}/cart reads the target. The column carries a foreign key and an index.
 * @example
 *   @ToOne(() => Cart, { writable: 'create' }) cartId!: string;
 */
export function ToOne(target: () => EntityClass, options: ToOneOptions = {}): PropertyDecorator {
  return (prototype, property) => {
    const idProperty = String(property);
    if (!idProperty.endsWith('Id')) {
      throw new Error(`@ToOne property ${idProperty} must end with "Id" (e.g. cartId)`);
    }
    const relationship = idProperty.slice(0, -2);
    const writable = options.writable ?? true;
    recordMember(prototype, {
      property: idProperty,
      description: options.description,
      type: 'string',
      optional: options.optional ?? writable === false,
      nullable: options.nullable ?? false,
      writable,
      output: 'always',
      stored: true,
      maxLength: ID_COLUMN.length,
      reference: { relationship, target },
    });
    const name = snakeCase(idProperty);
    Column({ ...ID_COLUMN, name, nullable: options.nullable ?? false })(prototype, property);
    Index()(prototype, property);
    ManyToOne(target, {
      onDelete: options.onDelete ?? 'RESTRICT',
      nullable: options.nullable,
      createForeignKeyConstraints: options.foreignKey ?? true,
    })(prototype, relationship);
    JoinColumn({ name })(prototype, relationship);
    if (options.inverse) {
      const source = (prototype as { constructor: EntityClass }).constructor;
      declareInverse({ ...options.inverse, target, source, inverse: idProperty });
    }
  };
}
