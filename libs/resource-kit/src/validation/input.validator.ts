import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ResourceDefinition } from '../metadata/definition';
import { InputMode, inputSchema } from './input.schema';

// JSON Schema 2020-12, the dialect of OpenAPI 3.1, with the standard meaning of its formats;
// patterns are read with the `u` flag (ajv's default), as the input schema expects.
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv, ['date', 'date-time', 'email']);
const validators = new WeakMap<ResourceDefinition, Map<InputMode, ValidateFunction>>();

/** The validator of a resource's write body, compiled once from its published input schema. */
export function inputValidatorOf(
  definition: ResourceDefinition,
  mode: InputMode,
): ValidateFunction {
  let compiled = validators.get(definition);
  if (!compiled) validators.set(definition, (compiled = new Map<InputMode, ValidateFunction>()));
  let validate = compiled.get(mode);
  if (!validate) compiled.set(mode, (validate = ajv.compile(inputSchema(definition, mode))));
  return validate;
}
