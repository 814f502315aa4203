import type { EntityClass } from '../metadata/definition';
import { readResourceDefinition } from '../metadata/definition.reader';
import type { AccessLevel } from '../metadata/definition';
import { isQueryable } from '../query/queryable-members';
import { Attribute } from './attribute.decorator';
import { Resource } from './resource.decorator';
import { ResourceEntity } from './resource-entity';
import { ToOne } from './to-one.decorator';

const OWN_MEMBERS = new Set(['createdAt', 'updatedAt']);

/**
 * Declares the revisions resource of a resource with history, from the resource's own
 * declaration: its stored, readable attributes, all optional (a revision shows them as they
 * were), a `revision` number from 1, and a to-one back to the resource. Read-only.
 * @example
 *   export const ProductRevision = revisionsOf(Product, { type: 'product_revisions', owner: 'productId', access: 'public' });
 */
export function revisionsOf(
  source: EntityClass,
  options: { type: string; owner: string; access: AccessLevel },
): EntityClass<ResourceEntity> {
  const revisions = class extends ResourceEntity {};
  Object.defineProperty(revisions, 'name', { value: `${source.name}Revision` });
  const prototype = revisions.prototype as object;
  const described = readResourceDefinition(source);
  ToOne(() => source, {
    writable: false,
    onDelete: 'CASCADE',
    description: `The ${described.type} resource this is a revision of`,
  })(prototype, options.owner);
  Attribute({
    type: 'integer',
    writable: false,
    min: 1,
    description: 'The revision number: 1 for the creation, one more per update',
  })(prototype, 'revision');
  for (const attribute of described.attributes) {
    if (!isQueryable(attribute) || OWN_MEMBERS.has(attribute.property)) continue;
    const { description, type, values, format, maxLength, minLength, min, max, readableBy } =
      attribute;
    Attribute({
      readableBy,
      description: description && `${description}, as it was in this revision`,
      type,
      values,
      format,
      maxLength,
      minLength,
      min,
      max,
      writable: false,
      optional: true,
      nullable: true,
    })(prototype, attribute.property);
  }
  Resource({
    type: options.type,
    description: `The revisions of ${described.type}: one per create or update, as it was then`,
    access: { list: options.access, read: options.access },
    indexes: [[options.owner, 'revision']],
  })(revisions);
  return revisions;
}
