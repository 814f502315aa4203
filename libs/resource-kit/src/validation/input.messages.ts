import type { ErrorObject } from 'ajv';
import type { AttributeDefinition, ResourceDefinition } from '../metadata/definition';
import type { InputMode } from './input.schema';

/** One message, where it is listed, and what it names (one message per member). */
interface Problem {
  readonly order: readonly number[];
  readonly member: string;
  readonly text: string;
}

// The body's own problems first, then data's identity, members not allowed, attributes.
const GROUP = { body: 0, data: 1, type: 2, id: 3, notAllowed: 4, attribute: 5 };
// When a member breaks several rules, the first of these is reported (`items`: an id in `ids`).
const KEYWORDS = [
  ...['required', 'type', 'const', 'enum', 'minItems', 'maxItems', 'items', 'pattern'],
  ...['maxLength', 'format', 'minLength', 'minimum', 'maximum', 'uniqueItems'],
];
const ID_MISMATCH = 'data.id must equal the id in the path';
const TYPE_TEXT: Record<string, string> = {
  string: 'must be a string',
  integer: 'must be an integer',
  number: 'must be a number',
  boolean: 'must be a boolean',
};
// Dates and times have one message whatever rule they break.
const WIRE_FORM_TEXT: Record<string, string> = {
  date: 'must be a date in the form YYYY-MM-DD',
  time: 'must be a UTC time in the form YYYY-MM-DDTHH:MM:SSZ',
};
const FORMAT_TEXT: Record<string, string> = { email: 'must be an email address' };

/**
 * The kit's messages for a write body (SPEC 1.4), from the errors of its input schema plus
 * the one rule a schema cannot say: a PATCH's `data.id` equals the path id. Every problem at
 * once, one per member, each naming it; attributes in declaration order.
 */
export function inputProblems(
  errors: readonly ErrorObject[],
  body: unknown,
  definition: ResourceDefinition,
  mode: InputMode,
  pathId?: string,
): string[] {
  const problems = errors.map((error) => problemOf(error, body, definition, mode));
  const data = isObject(body) ? body.data : undefined;
  if (mode === 'patch' && isObject(data) && Object.hasOwn(data, 'id') && data.id !== pathId) {
    problems.push({ order: [GROUP.id], member: 'id', text: ID_MISMATCH });
  }
  const named = new Set<string>();
  return problems
    .sort((a, b) => compareOrders(a.order, b.order))
    .filter(({ member }) => !named.has(member) && !!named.add(member))
    .map(({ text }) => text);
}

function problemOf(
  error: ErrorObject,
  body: unknown,
  definition: ResourceDefinition,
  mode: InputMode,
): Problem {
  // Attribute names hold no "/" or "~", so the pointer's segments are the names themselves.
  const [, top, member, ...deeper] = error.instancePath.split('/');
  if (top === undefined) return bodyProblem(error);
  if (member === undefined) return dataProblem(error, definition, mode);
  if (member === 'type') {
    return { order: [GROUP.type], member, text: `data.type must be "${definition.type}"` };
  }
  if (member === 'id') return { order: [GROUP.id], member, text: ID_MISMATCH };
  const index = definition.attributes.findIndex((attribute) => attribute.name === member);
  const keyword = deeper.length > 0 ? 'items' : error.keyword;
  const value = (body as { data: Record<string, unknown> }).data[member];
  const text = `data.${member} ${valueText(definition.attributes[index], keyword, error, value)}`;
  return { order: [GROUP.attribute, index, KEYWORDS.indexOf(keyword)], member, text };
}

function bodyProblem(error: ErrorObject): Problem {
  if (error.keyword === 'required') {
    return { order: [GROUP.data], member: '/data', text: 'data is required' };
  }
  if (error.keyword !== 'additionalProperties') {
    const text = 'the body must be a JSON object with a "data" member';
    return { order: [GROUP.body], member: '/', text };
  }
  const key = String(error.params.additionalProperty);
  const text = `${key} is not allowed at the top level; only "data" is`;
  return { order: [GROUP.body], member: `/${key}`, text };
}

// Errors of `data` itself: not an object, a required member missing, a member not allowed.
function dataProblem(error: ErrorObject, definition: ResourceDefinition, mode: InputMode): Problem {
  if (error.keyword === 'required') {
    const name = String(error.params.missingProperty);
    const index = definition.attributes.findIndex((attribute) => attribute.name === name);
    return { order: [GROUP.attribute, index, 0], member: name, text: `data.${name} is required` };
  }
  if (error.keyword !== 'additionalProperties') {
    return { order: [GROUP.data], member: '/data', text: 'data must be an object' };
  }
  const name = String(error.params.additionalProperty);
  if (name === 'id') {
    const text = 'data.id must not be given; the service assigns ids';
    return { order: [GROUP.id], member: name, text };
  }
  const text = `data.${name} ${whyNotAllowed(name, definition, mode)}`;
  return { order: [GROUP.notAllowed], member: name, text };
}

function whyNotAllowed(name: string, definition: ResourceDefinition, mode: InputMode): string {
  const attribute = definition.attributeByName.get(name);
  const polymorphic = definition.polymorphic.some((reference) => reference.name === name);
  if (!attribute && !polymorphic) return `is not an attribute of ${definition.type}`;
  if (attribute?.writable.create && mode === 'patch') return 'can be set only on create';
  if (attribute?.writable.patch && mode === 'create') return 'can be set only on update';
  return 'is read-only';
}

function valueText(
  attribute: AttributeDefinition,
  keyword: string,
  error: ErrorObject,
  value: unknown,
): string {
  if (value === null) return 'must not be null';
  if (attribute.type === 'enum') return `must be one of: ${attribute.values!.join(', ')}`;
  if (attribute.type === 'ids') return idsText(keyword, Number(error.params.limit));
  if (attribute.type in WIRE_FORM_TEXT) return WIRE_FORM_TEXT[attribute.type];
  const limit = String(error.params.limit);
  switch (keyword) {
    case 'pattern':
      return (value as string).includes('\u0000')
        ? 'must not contain U+0000'
        : 'must be well-formed Unicode text';
    case 'maxLength':
      return `must be at most ${limit} characters`;
    case 'minLength':
      return `must be at least ${limit} characters`;
    case 'maximum':
      return `must be at most ${limit}`;
    case 'minimum':
      return `must be at least ${limit}`;
    case 'format':
      return FORMAT_TEXT[String(error.params.format)];
    default:
      return TYPE_TEXT[attribute.type];
  }
}

function idsText(keyword: string, limit: number): string {
  const ids = (count: number) => (count === 1 ? 'one id' : `${count} ids`);
  switch (keyword) {
    case 'minItems':
      return `must hold at least ${ids(limit)}`;
    case 'maxItems':
      return `must hold at most ${ids(limit)}`;
    case 'items':
      return 'must hold only id strings';
    case 'uniqueItems':
      return 'must not repeat an id';
    default:
      return 'must be an array of ids';
  }
}

function compareOrders(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? -1) - (b[i] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
