import { Entity, Index } from 'typeorm';
import type { ResourceOptions } from '../metadata/resource-options';
import { RESOURCE_OPTIONS } from '../metadata/keys';
import { snakeCase } from '../metadata/naming';
import { searchIndexName } from '../persistence/search-indexes';
import { declaredMembers } from '../metadata/member-declarations';

/**
 * Declares an entity class as a resource: its table, its type on the wire and its verbs.
 * @example
 *   @Resource({ type: 'widgets', access: { list: 'public', read: 'public', create: 'admin' } })
 *   export class Widget extends ResourceEntity { ... }
 */
export function Resource(options: ResourceOptions): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(RESOURCE_OPTIONS, Object.freeze({ ...options }), target);
    Entity(options.type)(target);
    // Back the default order (created_at, then id), the order of changes, and keyset pages.
    const indexes = [['createdAt', 'id'], ['updatedAt', 'id'], ...(options.indexes ?? [])];
    for (const member of declaredMembers(target)) {
      if (member.indexed) indexes.push([member.property, 'id']);
      // Written by the kit's migrations (an expression TypeORM cannot declare), kept by TypeORM.
      if (member.searchable) {
        const name = searchIndexName(options.type, member.property);
        Index(name, { synchronize: false })(target);
      }
    }
    // One index per name: `indexed` and `indexes` may both name the same one.
    const named = new Map(
      indexes.map((properties) => [
        `${options.type}_${properties.map(snakeCase).join('_')}`,
        properties,
      ]),
    );
    for (const [name, properties] of named) Index(name, [...properties])(target);
  };
}
