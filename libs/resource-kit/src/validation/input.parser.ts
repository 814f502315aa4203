import { invalidInput } from '../errors/kit.error';
import type { ResourceDefinition } from '../metadata/definition';
import { inputProblems } from './input.messages';
import type { InputMode } from './input.schema';
import { inputValidatorOf } from './input.validator';

/** A validated write: entity property names mapped to their new values. */
export type ResourceInput = ReadonlyMap<string, unknown>;

/**
 * Checks a request body against the resource's input schema (SPEC 1.4) and reports every
 * problem at once. `pathId` is the id of a PATCH path, which `data.id` must match.
 * References are not checked here: whether they name visible rows is `assertReferencesVisible`'s job.
 */
export function parseInput(
  body: unknown,
  definition: ResourceDefinition,
  mode: InputMode,
  pathId?: string,
): ResourceInput {
  const validate = inputValidatorOf(definition, mode);
  validate(body);
  const problems = inputProblems(validate.errors ?? [], body, definition, mode, pathId);
  if (problems.length > 0) throw invalidInput(problems);
  const data = (body as { data: Record<string, unknown> }).data;
  // Only declared, writable names are read, so keys like "__proto__" never reach an object.
  return new Map(
    definition.attributes
      .filter((attribute) => attribute.writable[mode] && Object.hasOwn(data, attribute.name))
      .map((attribute) => [attribute.property, data[attribute.name]]),
  );
}
