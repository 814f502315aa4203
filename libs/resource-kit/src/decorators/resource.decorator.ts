import { Column, Entity, getMetadataArgsStorage, Index } from 'typeorm';
import type { ResourceOptions } from '../metadata/resource-options';
import { RESOURCE_OPTIONS } from '../metadata/keys';
import { snakeCase } from '../metadata/naming';
import { searchIndexName } from '../persistence/search-indexes';
import { declaredMembers, recordMember } from '../metadata/member-declarations';

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
    if (options.tenant === true) declareTenant(target, options.type);
    if (options.tenant === 'inherited') declareInheritedTenant(target);
    // Back the default order (created_at, then id), the order of changes, and keyset pages;
    // within a tenant, where every read names it.
    const tenant = options.tenant === true ? ['tenantId'] : [];
    const indexes = [
      [...tenant, 'createdAt', 'id'],
      [...tenant, 'updatedAt', 'id'],
      ...(options.indexes ?? []),
    ];
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

// SPEC 1.15: `tenant_id`, set from the caller's tenant (named on create by a cross-tenant
// operator, which has none; ResourceService checks it); a unique value is unique within its
// tenant (the column's own unique constraint becomes one on (tenant_id, column)).
function declareTenant(target: Parameters<ClassDecorator>[0], type: string): void {
  recordMember(target.prototype as object, {
    property: 'tenantId',
    description:
      'The tenant the resource belongs to: its creator\u2019s, or the one a cross-tenant operator names on create',
    type: 'string',
    optional: true,
    nullable: false,
    writable: 'create',
    writableBy: 'admin',
    output: 'always',
    stored: true,
    maxLength: TENANT_ID_LENGTH,
  });
  Column({ type: 'varchar', length: TENANT_ID_LENGTH, name: 'tenant_id' })(
    target.prototype as object,
    'tenantId',
  );
  // TypeORM records a column's `unique` as a constraint of its own, at once.
  const { uniques } = getMetadataArgsStorage();
  for (const unique of uniques.filter((candidate) => candidate.target === target)) {
    const columns = Array.isArray(unique.columns) ? unique.columns : [];
    if (columns.length !== 1) continue;
    uniques.splice(uniques.indexOf(unique), 1);
    const name = `${type}_${snakeCase(columns[0])}_unique_per_tenant`;
    Index(name, ['tenantId', columns[0]], { unique: true })(target);
  }
}

// The tenant of the write that recorded the row, if any: a column of the kit's, not a member,
// so a table shared by every tenant keeps its representation.
function declareInheritedTenant(target: Parameters<ClassDecorator>[0]): void {
  Column({ type: 'varchar', length: TENANT_ID_LENGTH, name: 'tenant_id', nullable: true })(
    target.prototype as object,
    'tenantId',
  );
}

const TENANT_ID_LENGTH = 64;
