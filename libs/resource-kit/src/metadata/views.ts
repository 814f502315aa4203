import {
  meets,
  type AttributeDefinition,
  type MemberLevel,
  type ResourceDefinition,
} from './definition';

const LEVELS: readonly MemberLevel[] = ['public', 'authenticated', 'owner', 'admin'];

const views = new WeakMap<ResourceDefinition, Readonly<Record<MemberLevel, ResourceDefinition>>>();

/**
 * The resource as a caller of `level` sees it (SPEC 1.16): without the members it may not
 * read, and with those it may read but not write read-only. Everything downstream (the
 * serializer, the output check, filter, order and input parsing, ETags) works on it, so each
 * view is planned once, and a member outside it cannot be sent, filtered, ordered or written.
 * A resource without restricted members is its own view at every level.
 */
export function viewFor(definition: ResourceDefinition, level: MemberLevel): ResourceDefinition {
  let byLevel = views.get(definition);
  if (!byLevel) {
    const restricted = definition.attributes.some((a) => a.readableBy || a.writableBy);
    byLevel = Object.fromEntries(
      LEVELS.map((each) => [each, restricted ? buildView(definition, each) : definition]),
    ) as Record<MemberLevel, ResourceDefinition>;
    views.set(definition, byLevel);
  }
  return byLevel[level];
}

function buildView(definition: ResourceDefinition, level: MemberLevel): ResourceDefinition {
  const allows = (needed: MemberLevel | undefined) => meets(level, needed);
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

/**
 * Whether every row a signed-in caller other than an administrator reads of this resource is
 * their own: the view of such a caller is drawn at `owner` (SPEC 1.16). The owner must be a
 * property of the row itself, so that the answer of a create can be told from the new row.
 */
export function readsOwnRowsOnly(definition: ResourceDefinition): boolean {
  const { owner, access } = definition;
  return (
    owner !== undefined &&
    !owner.includes('.') &&
    access.get('read') !== 'public' &&
    access.get('list') !== 'public'
  );
}

/** The member of the answer that names a row's owner (`holder_id`, or `id` for the row itself). */
export function ownerMemberOf(definition: ResourceDefinition): string {
  return definition.attributes.find((a) => a.property === definition.owner)?.name ?? 'id';
}

/** What is wrong with members read or written by the row's owner, if anything. */
export function ownerLevelProblem(definition: ResourceDefinition): string | undefined {
  const members = definition.attributes.filter(
    (a) => a.readableBy === 'owner' || a.writableBy === 'owner',
  );
  if (members.length === 0 || readsOwnRowsOnly(definition)) return undefined;
  return (
    `${members.map((a) => a.name).join(', ')}: the owner level needs an owner property of ` +
    `${definition.type} itself and reads of the owner's rows only (no public read or list)`
  );
}
