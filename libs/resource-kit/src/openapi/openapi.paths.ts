import type { EntityClass, Operation, ResourceDefinition } from '../metadata/definition';
import type { JsonSchema } from '../validation/output.schema';
import { accessText, deprecationText, methodsText } from './openapi.descriptions';
import type { OpenApiOptions } from './openapi.options';
import { headerParameters, responseHeaders } from './openapi.headers';
import { filterParameters, orderParameter, pageParameters } from './openapi.parameters';
import { errorResponses, StatusContext } from './openapi.responses';

type PathItem = Record<string, unknown>;

/** What the paths of one resource need from the rest of the document. */
export interface PathContext extends StatusContext {
  readonly options: OpenApiOptions;
  /** The definition of a relationship's target. */
  readonly definitionOf: (entity: EntityClass) => ResourceDefinition;
}

const ID = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The resource\u2019s id',
  schema: { type: 'string' },
};

/** The paths of one resource: its collection, item and relationship paths, verb by verb. */
export function pathsOf(
  definition: ResourceDefinition,
  context: PathContext,
): [string, PathItem][] {
  const { type, operations } = definition;
  const paths: [string, PathItem][] = [];
  const collection = pathItem({
    GET: operations.has('list') && listOperation(definition, context),
    POST: operations.has('create') && writeOperation(definition, 'create', context),
  });
  if (collection) paths.push([`/${type}`, collection]);
  const single = pathItem({
    GET: operations.has('read') && readOperation(definition, context),
    PATCH: operations.has('update') && writeOperation(definition, 'update', context),
    DELETE: operations.has('delete') && deleteOperation(definition, context),
  });
  if (single) paths.push([`/${type}/{id}`, { parameters: [ID], ...single }]);
  if (!operations.has('read')) return paths;
  for (const [name, attribute] of definition.toOne) {
    const target = context.definitionOf(attribute.reference!.target());
    const item = pathItem({ GET: relatedOne(definition, name, target, context) });
    paths.push([`/${type}/{id}/${name}`, { parameters: [ID], ...item }]);
  }
  for (const [name, relation] of definition.toMany) {
    const target = context.definitionOf(relation.target());
    const text = relation.description ?? `The ${target.type} resources that belong to it.`;
    const item = pathItem({ GET: relatedMany(definition, name, target, text, context) });
    paths.push([`/${type}/{id}/${name}`, { parameters: [ID], ...item }]);
  }
  return paths;
}

// A path's supported operations, and its description: what any other method answers (405).
function pathItem(byMethod: Record<string, JsonSchema | false>): PathItem | undefined {
  const supported = Object.entries(byMethod).filter(
    (entry): entry is [string, JsonSchema] => entry[1] !== false,
  );
  if (supported.length === 0) return undefined;
  return {
    description: methodsText(supported.map(([method]) => method)),
    ...Object.fromEntries(
      supported.map(([method, operation]) => [method.toLowerCase(), operation]),
    ),
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

function operation(
  definition: ResourceDefinition,
  id: string,
  access: Operation,
  text: { summary: string; description?: string },
): JsonSchema {
  const description = [text.description ?? definition.description, accessText(definition, access)]
    .filter(Boolean)
    .join(' ');
  return {
    operationId: id,
    tags: [definition.type],
    summary: text.summary,
    description,
    security: definition.access.get(access) === 'public' ? [] : [{ bearer: [] }],
  };
}

function listOperation(definition: ResourceDefinition, context: PathContext): JsonSchema {
  const { type } = definition;
  return {
    ...operation(definition, `list_${type}`, 'list', { summary: `List ${type}` }),
    parameters: collectionParameters(definition, context),
    responses: {
      '200': { description: `A page of ${type}`, content: json(pageSchema(ref(type), context)) },
      ...errorResponses(definition, 'list', context),
    },
  };
}

function readOperation(definition: ResourceDefinition, context: PathContext): JsonSchema {
  const { type } = definition;
  return {
    ...operation(definition, `read_${type}`, 'read', { summary: `Read one of ${type}` }),
    parameters: [
      ...filterParameters(definition, context.definitionOf),
      ...headerParameters(definition, 'read'),
    ],
    responses: {
      '200': {
        description: `One of ${type}`,
        ...responseHeaders(definition, 'read'),
        content: json(single(ref(type))),
      },
      ...notModified(),
      ...errorResponses(definition, 'read', context),
    },
  };
}

function deleteOperation(definition: ResourceDefinition, context: PathContext): JsonSchema {
  const { type } = definition;
  return {
    ...operation(definition, `delete_${type}`, 'delete', { summary: `Delete one of ${type}` }),
    parameters: headerParameters(definition, 'delete'),
    responses: {
      '200': {
        description: 'The deleted resource, as it was',
        ...responseHeaders(definition, 'delete'),
        content: json(single(ref(type))),
      },
      ...errorResponses(definition, 'delete', context),
    },
  };
}

function writeOperation(
  definition: ResourceDefinition,
  verb: 'create' | 'update',
  context: PathContext,
): JsonSchema {
  const { type } = definition;
  const creates = verb === 'create';
  const deprecated = creates && definition.deprecation !== undefined;
  const text = creates
    ? { summary: `Create one of ${type}`, description: deprecationText(definition) || undefined }
    : { summary: `Update one of ${type}` };
  return {
    ...operation(definition, `${verb}_${type}`, verb, text),
    ...(deprecated && { deprecated: true }),
    parameters: headerParameters(definition, verb),
    requestBody: {
      required: true,
      description: creates
        ? `The new resource: its required members, and any optional ones`
        : `The members to change; the others keep their values`,
      content: json(ref(`${type}.${creates ? 'create' : 'patch'}`)),
    },
    responses: {
      [creates ? '201' : '200']: {
        description: creates ? 'Created' : 'The whole updated resource',
        ...responseHeaders(definition, verb),
        content: json(single(ref(creates ? `${type}.created` : type))),
      },
      ...errorResponses(definition, verb, context),
    },
  };
}

function relatedOne(
  definition: ResourceDefinition,
  name: string,
  target: ResourceDefinition,
  context: PathContext,
): JsonSchema {
  return {
    ...operation(definition, `read_${definition.type}_${name}`, 'read', {
      summary: `Read the ${name} of one of ${definition.type}`,
      description: `The related ${target.type} resource, or null when there is none.`,
    }),
    parameters: [
      ...filterParameters(target, context.definitionOf),
      ...headerParameters(definition, 'read'),
    ],
    responses: {
      '200': {
        description: `The related ${name} (one of ${target.type}), or null`,
        ...responseHeaders(definition, 'read'),
        content: json(single({ oneOf: [ref(target.type), { type: 'null' }] })),
      },
      ...notModified(),
      ...errorResponses(definition, 'to-one', context),
    },
  };
}

function relatedMany(
  definition: ResourceDefinition,
  name: string,
  target: ResourceDefinition,
  description: string,
  context: PathContext,
): JsonSchema {
  return {
    ...operation(definition, `list_${definition.type}_${name}`, 'read', {
      summary: `List the ${name} of one of ${definition.type}`,
      description,
    }),
    parameters: collectionParameters(target, context),
    responses: {
      '200': {
        description: `A page of the ${name} (${target.type}) of one of ${definition.type}`,
        content: json(pageSchema(ref(target.type), context)),
      },
      ...errorResponses(definition, 'to-many', context),
    },
  };
}

function notModified(): JsonSchema {
  return { '304': { description: 'Not modified: If-None-Match names the current ETag (no body)' } };
}

function collectionParameters(definition: ResourceDefinition, context: PathContext): JsonSchema[] {
  return [
    ...filterParameters(definition, context.definitionOf),
    orderParameter(definition),
    ...pageParameters(context.options),
  ];
}

function pageSchema(items: JsonSchema, { options }: PathContext): JsonSchema {
  const data = { type: 'array', items, description: 'The resources of this page' };
  const cursor = {
    type: ['string', 'null'],
    description: 'Fetches the next page; null on the last',
  };
  return {
    type: 'object',
    additionalProperties: false,
    required: options.pagination === 'cursor' ? ['data', 'cursor'] : ['data'],
    properties: options.pagination === 'cursor' ? { data, cursor } : { data },
  };
}

function single(schema: JsonSchema): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['data'],
    properties: { data: { ...schema, description: 'The resource' } },
  };
}
