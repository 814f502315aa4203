import type { ResourceDefinition } from '../metadata/definition';
import type { PaginationStyle } from '../query/pagination';
import { inputSchema } from '../validation/input.schema';
import { JsonSchema, outputSchema } from '../validation/output.schema';
import { pathsOf } from './openapi.paths';

export interface OpenApiOptions {
  title: string;
  version: string;
  basePath: string;
  errorKey: string;
  pagination: PaginationStyle;
  pageSize: { default: number; max: number };
}

/** The OpenAPI 3.1 document of a service, derived from its resource declarations only. */
export function buildOpenApiDocument(
  definitions: readonly ResourceDefinition[],
  options: OpenApiOptions,
): JsonSchema {
  const sorted = [...definitions].sort((a, b) => a.type.localeCompare(b.type));
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version },
    servers: [{ url: options.basePath }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A session JWT or a static token' },
      },
      schemas: {
        Error: errorSchema(options.errorKey),
        ...Object.fromEntries(sorted.flatMap((definition) => schemasOf(definition))),
      },
    },
    paths: Object.fromEntries(sorted.flatMap((definition) => pathsOf(definition, options))),
  };
}

function errorSchema(errorKey: string): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: [errorKey],
    properties: { [errorKey]: { type: 'array', items: { type: 'string' }, minItems: 1 } },
  };
}

function schemasOf(definition: ResourceDefinition): [string, JsonSchema][] {
  const schemas: [string, JsonSchema][] = [
    [definition.type, outputSchema(definition, { created: false })],
  ];
  if (definition.operations.has('create')) {
    schemas.push([`${definition.type}.created`, outputSchema(definition, { created: true })]);
    schemas.push([`${definition.type}.create`, inputSchema(definition, 'create')]);
  }
  if (definition.operations.has('update'))
    schemas.push([`${definition.type}.patch`, inputSchema(definition, 'patch')]);
  return schemas;
}
