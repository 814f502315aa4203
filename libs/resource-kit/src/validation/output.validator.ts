import Ajv, { ValidateFunction } from 'ajv';
import type { ResourceDefinition } from '../metadata/definition';
import { isCalendarDate, isUtcTime } from './formats';
import { outputSchema } from './output.schema';

/** Thrown when a response does not match its declaration; the client only sees a 500. */
export class OutputValidationError extends Error {
  constructor(
    readonly type: string,
    readonly problems: readonly string[],
  ) {
    super(`response for ${type} does not match its declaration: ${problems.join('; ')}`);
    this.name = 'OutputValidationError';
  }
}

// The wire formats are stricter than JSON Schema's: no fractional seconds, no offsets.
const ajv = new Ajv({
  allErrors: true,
  strict: true,
  formats: { date: isCalendarDate, 'date-time': isUtcTime },
});
const compiled = new WeakMap<
  ResourceDefinition,
  { created: ValidateFunction; other: ValidateFunction }
>();

/** Checks one wire resource against its declared output shape; validators are compiled once. */
export function assertValidOutput(
  definition: ResourceDefinition,
  resource: unknown,
  options: { created: boolean },
): void {
  const validate = validatorsOf(definition)[options.created ? 'created' : 'other'];
  if (validate(resource)) return;
  const problems = (validate.errors ?? []).map(
    (error) =>
      `${error.instancePath || '/'} ${error.message ?? 'is invalid'}${error.params && 'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : ''}`,
  );
  throw new OutputValidationError(definition.type, problems);
}

function validatorsOf(definition: ResourceDefinition) {
  let validators = compiled.get(definition);
  if (!validators) {
    validators = {
      created: ajv.compile(outputSchema(definition, { created: true })),
      other: ajv.compile(outputSchema(definition, { created: false })),
    };
    compiled.set(definition, validators);
  }
  return validators;
}
