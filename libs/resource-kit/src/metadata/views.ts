import {
  meets,
  type AccessLevel,
  type AttributeDefinition,
  type ResourceDefinition,
} from './definition';

const LEVELS: readonly AccessLevel[] = ['public', 'authenticated', 'admin'];

const views = new WeakMap<ResourceDefinition, Readonly<Record<AccessLevel, ResourceDefinition>>>();

/**
 * The resource as a caller of `level` sees it (SPEC 1.16): without the members it may not
 * read, and with those it may read but not write read-only. Everything downstream (the
 * serializer, the output check, filter, order and input parsing, ETags) works on it, so each
 * view is planned once, and a member outside it cannot be sent, filtered, ordered or written.
 * A resource without restricted members is its own view at every level.
 */
export function viewFor(definition: ResourceDefinition, level: AccessLevel): ResourceDefinition {
  let byLevel = views.get(definition);
  if (!byLevel) {
    const restricted = definition.attributes.some((a) => a.readableBy || a.writableBy);
    byLevel = Object.fromEntries(
      LEVELS.map((each) => [each, restricted ? buildView(definition, each) : definition]),
    ) as Record<AccessLevel, ResourceDefinition>;
    views.set(definition, byLevel);
  }
  return byLevel[level];
}

function buildView(definition: ResourceDefinition, level: AccessLevel): ResourceDefinition {
  const allows = (needed: AccessLevel | undefined) => meets(level, needed);
  const attributes = definition.attributes
    .filter((attribute) => allows(attribute.readableBy))
    .map((attribute): AttributeDefinition =>
      allows(attribute.writableBy)
        ? attribute
        : Object.freeze({ ...attribute, writable: Object.freeze({ create: false, patch: false }) }),
    );
  const names = new Set(attributes.map((attribute) => attribute.name));
  return Object.freeze({
    ...definition,
    attributes: Object.freeze(attributes),
    attributeByName: new Map(attributes.map((attribute) => [attribute.name, attribute])),
    toOne: new Map([...definition.toOne].filter(([, attribute]) => names.has(attribute.name))),
  });
}

/** Only the members of `view` (a stored answer given again to a caller of that view). */
export function inView(
  view: ResourceDefinition,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const shown = new Set([
    'type',
    'id',
    ...view.attributes.map((a) => a.name),
    ...view.polymorphic.map((p) => p.name),
  ]);
  return Object.fromEntries(Object.entries(data).filter(([name]) => shown.has(name)));
}
