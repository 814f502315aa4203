import { inversesOf } from './inverse-relationships';
import { declaredMembers, type MemberDeclaration } from './member-declarations';
import type { ResourceOptions } from './resource-options';
import {
  AccessLevel,
  AttributeDefinition,
  CreationDeprecation,
  EntityClass,
  Operation,
  OPERATIONS,
  PolymorphicDefinition,
  ResourceDefinition,
  ToManyDefinition,
} from './definition';
import { RESOURCE_OPTIONS, RESOURCE_POLYMORPHIC } from './keys';
import { KeyCasing, wireName } from './naming';

const cache = new Map<KeyCasing, WeakMap<EntityClass, ResourceDefinition>>();

/** The one reader of resource metadata: a complete, frozen definition, built once per class. */
export function readResourceDefinition(
  entity: EntityClass,
  casing: KeyCasing = 'snake_case',
): ResourceDefinition {
  const byEntity = cache.get(casing) ?? new WeakMap<EntityClass, ResourceDefinition>();
  cache.set(casing, byEntity);
  let definition = byEntity.get(entity);
  if (!definition) {
    definition = buildDefinition(entity, casing);
    byEntity.set(entity, definition);
  }
  return definition;
}

function buildDefinition(entity: EntityClass, casing: KeyCasing): ResourceDefinition {
  const options = Reflect.getMetadata(RESOURCE_OPTIONS, entity) as ResourceOptions | undefined;
  if (!options) throw new Error(`${entity.name} is not decorated with @Resource`);
  const attributes = declaredMembers(entity).map((member) => attributeOf(member, casing));
  const access = new Map(Object.entries(options.access) as [Operation, AccessLevel][]);
  const unknown = [...access.keys()].filter((op) => !OPERATIONS.includes(op));
  if (unknown.length > 0) throw new Error(`${entity.name}: unknown operations ${unknown.join()}`);
  const definition: Omit<ResourceDefinition, 'toMany'> = {
    type: options.type,
    entity,
    access,
    operations: new Set(access.keys()),
    owner: options.owner,
    tenant: options.tenant ?? false,
    tenantlessRows: tenantlessRowsOf(entity, options),
    description: options.description,
    deprecation: deprecationOf(entity, options.deprecated?.creation),
    answers: new Map(
      Object.entries(options.answers ?? {}) as [Operation, Record<number, string>][],
    ),
    history: options.history,
    transitions: options.transitions,
    idempotency: options.idempotency ?? {},
    attributes: Object.freeze(attributes),
    attributeByName: new Map(attributes.map((attribute) => [attribute.name, attribute])),
    toOne: new Map(
      attributes
        .filter((attribute) => attribute.reference && attribute.type !== 'ids')
        .map((attribute) => [attribute.reference!.relationship, attribute]),
    ),
    polymorphic: Object.freeze(
      (
        (Reflect.getMetadata(RESOURCE_POLYMORPHIC, entity.prototype as object) ??
          []) as PolymorphicDefinition[]
      ).map((reference) =>
        Object.freeze({ ...reference, name: wireName(reference.property, casing) }),
      ),
    ),
  };
  // Read on first use, once the service's modules are loaded: other resources may declare
  // to-many sides on this one, and a resource's controller reads its definition at import.
  let toMany: Map<string, ToManyDefinition> | undefined;
  return Object.freeze(
    Object.defineProperty(definition as ResourceDefinition, 'toMany', {
      get: () => (toMany ??= toManyOf(entity, options)),
      enumerable: true,
    }),
  );
}

// Its own `toMany` entries, then those the resources that hold the keys declare on it.
function toManyOf(entity: EntityClass, options: ResourceOptions): Map<string, ToManyDefinition> {
  const own = Object.entries(options.toMany ?? {}).map(([name, relation]) =>
    Object.freeze({ name, ...relation }),
  );
  const toMany = new Map<string, ToManyDefinition>();
  for (const relation of [...own, ...inversesOf(entity)]) {
    if (toMany.has(relation.name)) {
      throw new Error(
        `${entity.name}: the to-many relationship ${relation.name} is declared twice`,
      );
    }
    toMany.set(relation.name, relation);
  }
  return toMany;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

// Dates are checked when the service starts, not when a client first creates one.
function deprecationOf(
  entity: EntityClass,
  deprecation: CreationDeprecation | undefined,
): CreationDeprecation | undefined {
  if (!deprecation) return undefined;
  const { since, sunset } = deprecation;
  for (const day of [since, sunset ?? since]) {
    if (!DAY.test(day) || Number.isNaN(Date.parse(day)))
      throw new Error(`${entity.name}: deprecation dates are YYYY-MM-DD, got ${day}`);
  }
  if (sunset !== undefined && sunset < since)
    throw new Error(
      `${entity.name}: the sunset (${sunset}) comes before the deprecation (${since})`,
    );
  return Object.freeze({ ...deprecation });
}

function attributeOf(member: MemberDeclaration, casing: KeyCasing): AttributeDefinition {
  const { property, optional, writable, reference, ...shape } = member;
  return Object.freeze({
    ...shape,
    name: wireName(property, casing),
    property,
    required: !optional,
    writable: Object.freeze({
      create: writable === true || writable === 'create',
      patch: writable === true || writable === 'patch',
    }),
    // The relationship's path segment follows the key casing too (previous_cart).
    reference:
      reference &&
      Object.freeze({ ...reference, relationship: wireName(reference.relationship, casing) }),
  });
}

function tenantlessRowsOf(entity: EntityClass, options: ResourceOptions): 'hidden' | 'readable' {
  if (options.tenantlessRows && options.tenant !== 'inherited') {
    throw new Error(`${entity.name}: tenantlessRows goes with tenant: 'inherited' only`);
  }
  return options.tenantlessRows ?? 'hidden';
}
