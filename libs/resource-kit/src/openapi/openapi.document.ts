import { byType, type EntityClass, type ResourceDefinition } from '../metadata/definition';
import { inputSchema } from '../validation/input.schema';
import { JsonSchema, outputSchema } from '../validation/output.schema';
import { withPropertyDescriptions } from './openapi.descriptions';
import { exampleOf } from './openapi.examples';
import { parameterComponents } from './openapi.parameters';
import type { OpenApiOptions } from './openapi.options';
import { pathsOf } from './openapi.paths';

/** The OpenAPI 3.1 document of a service, derived from its resource declarations only. */
export function buildOpenApiDocument(
  definitions: readonly ResourceDefinition[],
  options: OpenApiOptions,
): JsonSchema {
  const sorted = [...definitions].sort(byType);
  const byEntity = new Map(definitions.map((definition) => [definition.entity, definition]));
  const referenced = new Set(
    definitions.flatMap((definition) =>
      [...definition.toOne.values()].map((attribute) => attribute.reference!.target()),
    ),
  );
  const definitionOf = (entity: EntityClass) => byEntity.get(entity)!;
  const context = (definition: ResourceDefinition) => ({
    options,
    referenced: referenced.has(definition.entity),
    definitionOf,
  });
  const paths = sorted.map((definition) => pathsOf(definition, context(definition)));
  const schemas = {
    Error: errorSchema(options.errorKey),
    ...Object.fromEntries(sorted.flatMap((definition) => schemasOf(definition))),
  };
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version },
    servers: [{ url: options.basePath }],
    tags: sorted.map((definition, index) => ({
      name: definition.type,
      description: tagText(definition, paths[index]),
    })),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A session JWT or a static token' },
      },
      parameters: Object.fromEntries(
        sorted.flatMap((definition) => parameterComponents(definition, definitionOf)),
      ),
      schemas: Object.fromEntries(
        Object.entries(schemas).map(([name, schema]) => [
          name,
          { ...schema, example: exampleOf(schema) },
        ]),
      ),
    },
    paths: Object.fromEntries(paths.flat()),
  };
}

const VERBS = ['get', 'post', 'patch', 'delete'];

// A resource's section of the page: what it is, and each path's methods (others answer 405).
function tagText(definition: ResourceDefinition, paths: [string, JsonSchema][]): string {
  const methods = paths.map(
    ([path, item]) =>
      `${path} ${VERBS.filter((verb) => verb in item)
        .map((verb) => verb.toUpperCase())
        .join(', ')}`,
  );
  const text = `Methods: ${methods.join('; ')}. Any other method answers 405 with Allow and the error envelope.`;
  return [definition.description, text].filter(Boolean).join(' ');
}

function errorSchema(errorKey: string): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: [errorKey],
    description: 'Every failure: one human-readable message per problem',
    properties: {
      [errorKey]: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        description: 'The problems, each naming the member or parameter at fault',
      },
    },
  };
}

function schemasOf(definition: ResourceDefinition): [string, JsonSchema][] {
  const { type } = definition;
  const output = (created: boolean, description: string) => ({
    ...withPropertyDescriptions(outputSchema(definition, { created }), definition),
    description,
  });
  const input = (mode: 'create' | 'patch', description: string) =>
    describedInput(inputSchema(definition, mode), definition, description);
  const schemas: [string, JsonSchema][] = [
    [type, output(false, definition.description ?? `One of ${type}`)],
  ];
  if (definition.operations.has('create')) {
    schemas.push([`${type}.created`, output(true, `One of ${type}, as POST answers it`)]);
    schemas.push([`${type}.create`, input('create', `The body of POST /${type}`)]);
  }
  if (definition.operations.has('update'))
    schemas.push([`${type}.patch`, input('patch', `The body of PATCH /${type}/{id}`)]);
  return schemas;
}

// The input schemas describe their members the way the output does.
function describedInput(
  schema: JsonSchema,
  definition: ResourceDefinition,
  description: string,
): JsonSchema {
  const properties = schema.properties as { data: JsonSchema };
  const data = withPropertyDescriptions(properties.data, definition);
  return {
    ...schema,
    description,
    properties: { ...properties, data: { ...data, description: 'The resource’s members' } },
  };
}
