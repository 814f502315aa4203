import { meets, type MemberLevel } from '../metadata/definition';
import type { AttributeContract, Contract, ResourceContract } from './contract';

/**
 * Every change from `previous` to `current` that can break a client written against
 * `previous` (SPEC 1.9). Additions (resources, optional inputs, outputs, values, verbs) are
 * not breaking, nor is deprecating a creation or taking a deprecation back; bringing a
 * declared sunset forward is.
 */
export function breakingChanges(previous: Contract, current: Contract): string[] {
  return Object.entries(previous.resources).flatMap(([type, before]) => {
    const after = current.resources[type];
    if (!after) return [`${type}: resource removed`];
    return [
      ...operationChanges(type, before, after),
      ...headerChanges(type, before, after),
      ...sunsetChanges(type, before, after),
      ...relationshipChanges(type, before, after),
      ...Object.entries(before.attributes).flatMap(([name, was]) =>
        attributeChanges(`${type}.${name}`, was, after.attributes[name]),
      ),
      ...Object.keys(after.attributes)
        .filter((name) => !before.attributes[name] && after.attributes[name].requiredOnCreate)
        .map((name) => `${type}.${name}: new attribute required on create`),
    ];
  });
}

function operationChanges(
  type: string,
  before: ResourceContract,
  after: ResourceContract,
): string[] {
  return Object.entries(before.operations).flatMap(([operation, level]) => {
    const now = after.operations[operation];
    if (!now) return [`${type}: operation ${operation} removed`];
    return !meets(level, now)
      ? [`${type}: operation ${operation} now needs ${now} access (was ${level})`]
      : [];
  });
}

// A header an operation honoured or sent that it no longer does (a removed operation is
// reported alone); snapshots from before headers were described have none to lose.
function headerChanges(type: string, before: ResourceContract, after: ResourceContract): string[] {
  return Object.entries(before.headers ?? {}).flatMap(([operation, was]) => {
    if (!after.operations[operation]) return [];
    const now = after.headers?.[operation] ?? { request: [], response: [] };
    return [
      ...was.request
        .filter((name) => !now.request.includes(name))
        .map((name) => `${type}: operation ${operation} no longer honours ${name}`),
      ...was.response
        .filter((name) => !now.response.includes(name))
        .map((name) => `${type}: operation ${operation} no longer sends ${name}`),
    ];
  });
}

// Clients plan their move by the announced sunset: it may go later or away, never earlier.
function sunsetChanges(type: string, before: ResourceContract, after: ResourceContract): string[] {
  const was = before.deprecated?.create.sunset;
  const now = after.deprecated?.create.sunset;
  return was && now && now < was
    ? [`${type}: sunset of creation brought forward to ${now} (was ${was})`]
    : [];
}

function relationshipChanges(
  type: string,
  before: ResourceContract,
  after: ResourceContract,
): string[] {
  const changes: string[] = [];
  for (const kind of ['toOne', 'toMany'] as const) {
    for (const [name, target] of Object.entries(before[kind])) {
      if (after[kind][name] === undefined) changes.push(`${type}: relationship ${name} removed`);
      else if (after[kind][name] !== target)
        changes.push(
          `${type}: relationship ${name} now leads to ${after[kind][name]} (was ${target})`,
        );
    }
  }
  for (const name of before.polymorphic.filter((p) => !after.polymorphic.includes(p))) {
    changes.push(`${type}: reference ${name} removed`);
  }
  return changes;
}

function attributeChanges(
  path: string,
  was: AttributeContract,
  now: AttributeContract | undefined,
): string[] {
  if (!now) return [`${path}: attribute removed`];
  const changes: string[] = [];
  const note = (broken: boolean, what: string) => broken && changes.push(`${path}: ${what}`);
  note(now.type !== was.type, `type changed from ${was.type} to ${now.type}`);
  note(now.format !== was.format, `format changed from ${was.format} to ${now.format}`);
  const removed = (was.values ?? []).filter((value) => !(now.values ?? []).includes(value));
  note(removed.length > 0, `enum values removed: ${removed.join(', ')}`);
  note(!was.requiredOnCreate && now.requiredOnCreate, 'optional input made required');
  note(was.writableOnCreate && !now.writableOnCreate, 'no longer writable on create');
  note(was.writableOnPatch && !now.writableOnPatch, 'no longer writable on patch');
  note(!was.nullable && now.nullable, 'output may now be null');
  note(was.output === 'always' && now.output !== 'always', 'output may now be missing');
  note(was.filterable && !now.filterable, 'no longer filterable or orderable');
  // SPEC 1.16: fewer callers may read or write it.
  const narrowed = (before?: MemberLevel, after?: MemberLevel) => !meets(before ?? 'public', after);
  note(
    narrowed(was.readableBy, now.readableBy),
    `now read by ${now.readableBy} only (was ${was.readableBy ?? 'every caller'})`,
  );
  note(
    narrowed(was.writableBy, now.writableBy),
    `now written by ${now.writableBy} only (was ${was.writableBy ?? 'every caller'})`,
  );
  note(
    tighter(was.maxLength, now.maxLength, (a, b) => b < a),
    `maximum length lowered to ${now.maxLength}`,
  );
  note(
    tighter(was.minLength, now.minLength, (a, b) => b > a),
    `minimum length raised to ${now.minLength}`,
  );
  note(
    tighter(was.max, now.max, (a, b) => b < a),
    `maximum lowered to ${now.max}`,
  );
  note(
    tighter(was.min, now.min, (a, b) => b > a),
    `minimum raised to ${now.min}`,
  );
  return changes;
}

// A limit is tighter when one appears where there was none, or moves the narrowing way.
function tighter(
  was: number | null,
  now: number | null,
  narrows: (was: number, now: number) => boolean,
): boolean {
  if (now === null) return false;
  return was === null || narrows(was, now);
}
