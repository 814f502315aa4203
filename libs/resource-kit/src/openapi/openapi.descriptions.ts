import type {
  AccessLevel,
  MemberLevel,
  Operation,
  ResourceDefinition,
} from '../metadata/definition';
import type { JsonSchema } from '../validation/output.schema';

// The members every resource has, and those of the body's wrapper.
const KIT_MEMBERS: Readonly<Record<string, string>> = {
  type: 'The resource type, equal to its path segment',
  id: 'The resource\u2019s opaque id',
};

/** A schema whose properties each say what they are: declared, or the kit's own members. */
export function withPropertyDescriptions(
  schema: JsonSchema,
  definition: ResourceDefinition,
): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema>;
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        {
          ...(isReference(definition, name) ? describedReference(property) : property),
          description: memberDescription(definition, name),
        },
      ]),
    ),
  };
}

const REFERENCE_MEMBERS: Readonly<Record<string, string>> = {
  type: 'The type of the resource referred to',
  id: 'The id of the resource referred to',
};

const isReference = (definition: ResourceDefinition, name: string) =>
  definition.polymorphic.some((reference) => reference.name === name);

// `{type, id}`, or one of it and null.
function describedReference(schema: JsonSchema): JsonSchema {
  const describe = (branch: JsonSchema): JsonSchema =>
    branch.properties
      ? {
          ...branch,
          properties: Object.fromEntries(
            Object.entries(branch.properties as Record<string, JsonSchema>).map(
              ([name, member]) => [name, { ...member, description: REFERENCE_MEMBERS[name] }],
            ),
          ),
        }
      : branch;
  return Array.isArray(schema.oneOf)
    ? { ...schema, oneOf: (schema.oneOf as JsonSchema[]).map(describe) }
    : describe(schema);
}

function memberDescription(definition: ResourceDefinition, name: string): string | undefined {
  const attribute = definition.attributeByName.get(name);
  const reference = definition.polymorphic.find((candidate) => candidate.name === name);
  const text = attribute?.description ?? reference?.description ?? KIT_MEMBERS[name];
  const restricted = [
    attribute?.readableBy &&
      `Read by ${RESTRICTED_TO[attribute.readableBy]} only: absent from other callers' answers.`,
    attribute?.writableBy && `Written by ${RESTRICTED_TO[attribute.writableBy]} only.`,
  ].filter(Boolean);
  if (restricted.length === 0) return text;
  const sentence = text && (text.endsWith('.') ? text : `${text}.`);
  return [sentence, ...restricted].filter(Boolean).join(' ');
}

export const RESTRICTED_TO: Readonly<Record<MemberLevel, string>> = {
  public: 'every caller',
  authenticated: 'authenticated callers',
  owner: "the row's owner and administrators",
  admin: 'administrators',
};

const ACCESS_TEXT: Readonly<Record<AccessLevel, string>> = {
  public: 'Public: no token needed.',
  authenticated: 'Needs a bearer token.',
  admin: 'Administrators only.',
};

/** Who may call an operation, in words: its access level and, when owned, whose rows. */
export function accessText(definition: ResourceDefinition, operation: Operation): string {
  const level = definition.access.get(operation)!;
  const owned =
    definition.owner !== undefined && level === 'authenticated'
      ? ' A customer sees and changes only their own; administrators, all.'
      : '';
  return `${ACCESS_TEXT[level]}${owned}`;
}

/** The deprecation notice of a creation, or nothing. */
export function deprecationText(definition: ResourceDefinition): string {
  const deprecation = definition.deprecation;
  if (!deprecation) return '';
  const sunset = deprecation.sunset ? ` It may stop working after ${deprecation.sunset}.` : '';
  return `Deprecated since ${deprecation.since}: ${deprecation.successor.replace(/\.$/, '')}.${sunset} Answers carry Deprecation${deprecation.sunset ? ' and Sunset headers' : ' header'}.`;
}

/** The methods a path answers, and what any other method gets. */
export function methodsText(methods: readonly string[]): string {
  return `Methods: ${methods.join(', ')}. Any other method answers 405 with Allow: ${methods.join(', ')} and the error envelope.`;
}
