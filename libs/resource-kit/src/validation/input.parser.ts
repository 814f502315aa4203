import { validateSync } from 'class-validator';
import { invalidInput } from '../errors/kit.error';
import type { ResourceDefinition } from '../metadata/definition';
import { buildInputDto, InputDto, InputMode } from './input-dto.factory';

/** A validated write: entity property names mapped to their new values. */
export type ResourceInput = ReadonlyMap<string, unknown>;

const dtoCache = new WeakMap<ResourceDefinition, Record<InputMode, InputDto>>();

/**
 * Checks a request body against a resource's declaration (SPEC 1.4) and reports every
 * problem at once. `pathId` is the id of a PATCH path, which `data.id` must match.
 */
export function parseInput(
  body: unknown,
  definition: ResourceDefinition,
  mode: InputMode,
  pathId?: string,
): ResourceInput {
  const { data, problems: envelopeProblems } = envelopeData(body);
  const problems = [
    ...envelopeProblems,
    ...identityProblems(data, definition, mode, pathId),
    ...memberProblems(data, definition, mode),
  ];
  const candidate = Object.assign(
    new (dtoFor(definition, mode))(),
    writableMembers(data, definition, mode),
  );
  // forbidUnknownValues off: a DTO with no writable member (an empty PATCH) is still valid.
  for (const error of validateSync(candidate, {
    stopAtFirstError: true,
    forbidUnknownValues: false,
  })) {
    problems.push(...Object.values(error.constraints ?? {}));
  }
  if (problems.length > 0) throw invalidInput(problems);
  return new Map(
    Object.entries(candidate).map(([name, value]) => [
      definition.attributeByName.get(name)!.property,
      value,
    ]),
  );
}

// Top-level problems are reported along with the members' when `data` itself is usable.
function envelopeData(body: unknown): { data: Record<string, unknown>; problems: string[] } {
  if (!isObject(body)) throw invalidInput(['the body must be a JSON object with a "data" member']);
  const extra = Object.keys(body).filter((key) => key !== 'data');
  const problems = extra.map((key) => `${key} is not allowed at the top level; only "data" is`);
  if (!('data' in body)) problems.push('data is required');
  else if (!isObject(body.data)) problems.push('data must be an object');
  if (!isObject(body.data)) throw invalidInput(problems);
  return { data: body.data, problems };
}

function identityProblems(
  data: Record<string, unknown>,
  definition: ResourceDefinition,
  mode: InputMode,
  pathId?: string,
): string[] {
  const problems: string[] = [];
  if ('type' in data && data.type !== definition.type) {
    problems.push(`data.type must be "${definition.type}"`);
  }
  if ('id' in data) {
    if (mode === 'create') problems.push('data.id must not be given; the service assigns ids');
    else if (data.id !== pathId) problems.push('data.id must equal the id in the path');
  }
  return problems;
}

function memberProblems(
  data: Record<string, unknown>,
  definition: ResourceDefinition,
  mode: InputMode,
): string[] {
  return Object.keys(data)
    .filter((key) => key !== 'type' && key !== 'id')
    .flatMap((key) => {
      const attribute = definition.attributeByName.get(key);
      if (definition.polymorphic.some((reference) => reference.name === key))
        return [`data.${key} is read-only`];
      if (!attribute) return [`data.${key} is not an attribute of ${definition.type}`];
      if (attribute.writable[mode]) return [];
      if (attribute.writable.create) return [`data.${key} can be set only on create`];
      return [`data.${key} is read-only`];
    });
}

// Only declared, writable names are copied, so keys like "__proto__" never reach an object.
function writableMembers(
  data: Record<string, unknown>,
  definition: ResourceDefinition,
  mode: InputMode,
) {
  const members = definition.attributes.filter(
    (a) => a.writable[mode] && Object.hasOwn(data, a.name),
  );
  return Object.fromEntries(members.map((a) => [a.name, data[a.name]]));
}

function dtoFor(definition: ResourceDefinition, mode: InputMode): InputDto {
  let dtos = dtoCache.get(definition);
  if (!dtos) {
    dtos = {
      create: buildInputDto(definition, 'create'),
      patch: buildInputDto(definition, 'patch'),
    };
    dtoCache.set(definition, dtos);
  }
  return dtos[mode];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
