import type { Operation, ResourceDefinition } from '../metadata/definition';
import { FILTER_OPERATORS } from '../query/filter.parser';
import { PAGE_PARAMETERS } from '../query/pagination';
import { isQueryable } from '../query/queryable-members';
import { retryHeadersOf } from '../http/retry-headers';
import type { JsonSchema } from '../validation/output.schema';
import type { OpenApiOptions } from './openapi.document';
import { headerParameters, responseHeaders } from './openapi.headers';

type Operations = Record<string, unknown>;

/** The paths of one resource: its collection, item and relationship paths, verb by verb. */
export function pathsOf(
  definition: ResourceDefinition,
  options: OpenApiOptions,
): [string, Operations][] {
  const { type } = definition;
  const item = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  const paths: [string, Operations][] = [];
  const collection: Operations = {};
  if (definition.operations.has('list')) collection.get = listOperation(definition, type, options);
  if (definition.operations.has('create'))
    collection.post = writeOperation(definition, 'create', 201);
  if (Object.keys(collection).length > 0) paths.push([`/${type}`, collection]);
  const single: Operations = {};
  if (definition.operations.has('read'))
    single.get = readOperation(definition, type, definition.access.get('read'));
  if (definition.operations.has('update')) single.patch = writeOperation(definition, 'update', 200);
  if (definition.operations.has('delete'))
    single.delete = readOperation(definition, type, definition.access.get('delete'), 'delete');
  if (Object.keys(single).length > 0)
    paths.push([`/${type}/{id}`, { parameters: [item], ...single }]);
  if (definition.operations.has('read')) {
    for (const [name, attribute] of definition.toOne) {
      const target = attribute.reference!.target.name;
      paths.push([
        `/${type}/{id}/${name}`,
        { parameters: [item], get: relatedOne(definition, name, target) },
      ]);
    }
    for (const [name] of definition.toMany) {
      paths.push([
        `/${type}/{id}/${name}`,
        { parameters: [item], get: relatedMany(definition, name, options) },
      ]);
    }
  }
  return paths;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { description: ERROR_TEXT[status], content: json(ref('Error')) },
    ]),
  );
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const ERROR_TEXT: Record<number, string> = {
  400: 'The input does not match the declaration (every problem listed)',
  401: 'No valid bearer token',
  403: 'The caller\u2019s role may not do this',
  404: 'Unknown, or not visible to the caller',
  409: 'Conflict: a unique value taken, a state move not allowed, a rule of the resource, or an Idempotency-Key still in use',
  412: 'If-Match does not name the current ETag: nothing changed',
  422: 'The Idempotency-Key was used for another request (another body or path)',
  413: 'Body too large',
  415: 'Body not application/json',
  500: 'Unexpected failure',
};

// What conditional requests and idempotency keys add: 304 (no body), 409, 412, 422.
function retryResponses(definition: ResourceDefinition, operation: Operation): JsonSchema {
  const { statuses } = retryHeadersOf(definition, operation);
  return {
    ...(statuses.includes(304) && {
      '304': { description: 'Not modified: If-None-Match names the current ETag (no body)' },
    }),
    ...errors(...statuses.filter((status) => status !== 304)),
  };
}

function security(level: string | undefined): JsonSchema[] {
  return level === 'public' ? [] : [{ bearer: [] }];
}

function authErrors(level: string | undefined): number[] {
  return level === 'public' ? [] : level === 'admin' ? [401, 403] : [401];
}

function listOperation(
  definition: ResourceDefinition,
  type: string,
  options: OpenApiOptions,
): JsonSchema {
  const level = definition.access.get('list');
  return {
    operationId: `list_${type}`,
    tags: [type],
    security: security(level),
    parameters: collectionParameters(definition, options),
    responses: {
      '200': { description: `A page of ${type}`, content: json(pageSchema(type, options)) },
      ...errors(400, ...authErrors(level), 500),
    },
  };
}

function readOperation(
  definition: ResourceDefinition,
  type: string,
  level: string | undefined,
  verb: 'read' | 'delete' = 'read',
) {
  return {
    operationId: `${verb}_${type}`,
    tags: [type],
    security: security(level),
    parameters: [
      ...(verb === 'read' ? [filterParameter(definition)] : []),
      ...headerParameters(definition, verb),
    ],
    responses: {
      '200': {
        description: verb === 'read' ? `One of ${type}` : `The deleted resource, as it was`,
        ...responseHeaders(definition, verb),
        content: json(single(ref(type))),
      },
      ...retryResponses(definition, verb),
      ...errors(...(verb === 'read' ? [400] : [409]), ...authErrors(level), 404, 500),
    },
  };
}

function writeOperation(
  definition: ResourceDefinition,
  operation: Operation,
  status: number,
): JsonSchema {
  const { type } = definition;
  const level = definition.access.get(operation);
  const mode = operation === 'create' ? 'create' : 'patch';
  return {
    operationId: `${operation}_${type}`,
    tags: [type],
    security: security(level),
    parameters: headerParameters(definition, operation),
    requestBody: { required: true, content: json(ref(`${type}.${mode}`)) },
    responses: {
      [String(status)]: {
        description: operation === 'create' ? 'Created' : 'The whole updated resource',
        ...responseHeaders(definition, operation),
        content: json(single(ref(operation === 'create' ? `${type}.created` : type))),
      },
      ...retryResponses(definition, operation),
      ...errors(
        400,
        ...authErrors(level),
        ...(operation === 'update' ? [404] : []),
        409,
        413,
        415,
        500,
      ),
    },
  };
}

function relatedOne(definition: ResourceDefinition, name: string, target: string): JsonSchema {
  const level = definition.access.get('read');
  return {
    operationId: `read_${definition.type}_${name}`,
    tags: [definition.type],
    security: security(level),
    parameters: headerParameters(definition, 'read'),
    responses: {
      '200': {
        description: `The related ${name} (${target}), or null (a resource has its ETag)`,
        ...responseHeaders(definition, 'read'),
        content: json({ type: 'object', required: ['data'], properties: { data: {} } }),
      },
      ...retryResponses(definition, 'read'),
      ...errors(400, ...authErrors(level), 404, 500),
    },
  };
}

function relatedMany(
  definition: ResourceDefinition,
  name: string,
  options: OpenApiOptions,
): JsonSchema {
  const level = definition.access.get('read');
  const target = definition.toMany.get(name)!;
  return {
    operationId: `list_${definition.type}_${name}`,
    tags: [definition.type],
    security: security(level),
    parameters: [
      ...PAGE_PARAMETERS[options.pagination].map((param) => pageParameter(param, options)),
      { name: 'order', in: 'query', schema: { type: 'string' } },
    ],
    responses: {
      '200': {
        description: `A page of the ${name} of one ${definition.type} (${target.target().name})`,
        content: json({
          type: 'object',
          required: ['data'],
          properties: { data: { type: 'array' } },
        }),
      },
      ...errors(400, ...authErrors(level), 404, 500),
    },
  };
}

function collectionParameters(
  definition: ResourceDefinition,
  options: OpenApiOptions,
): JsonSchema[] {
  const orderable = ['id', ...definition.attributes.filter(isQueryable).map((a) => a.name)];
  return [
    filterParameter(definition),
    {
      name: 'order',
      in: 'query',
      description: `Comma-separated keys, "-" for descending: ${orderable.join(', ')}`,
      schema: { type: 'string' },
    },
    ...PAGE_PARAMETERS[options.pagination].map((param) => pageParameter(param, options)),
  ];
}

function filterParameter(definition: ResourceDefinition): JsonSchema {
  const filterable = definition.attributes.filter(isQueryable);
  return {
    name: 'filter',
    in: 'query',
    style: 'deepObject',
    explode: true,
    description: `filter[attribute]=value or filter[attribute][operator]=value; operators: ${FILTER_OPERATORS.join(', ')}`,
    schema: {
      type: 'object',
      properties: Object.fromEntries(
        filterable.map((a) => [a.name, { oneOf: [{ type: 'string' }, { type: 'object' }] }]),
      ),
    },
  };
}

function pageParameter(name: string, options: OpenApiOptions): JsonSchema {
  const sizes = ['limit', 'per_page'].includes(name);
  const schema =
    name === 'cursor'
      ? { type: 'string' }
      : {
          type: 'integer',
          minimum: sizes ? 1 : name === 'page' ? 1 : 0,
          ...(sizes && { maximum: options.pageSize.max, default: options.pageSize.default }),
        };
  return { name, in: 'query', schema };
}

function pageSchema(type: string, options: OpenApiOptions): JsonSchema {
  const data = { type: 'array', items: ref(type) };
  if (options.pagination !== 'cursor')
    return {
      type: 'object',
      additionalProperties: false,
      required: ['data'],
      properties: { data },
    };
  return {
    type: 'object',
    additionalProperties: false,
    required: ['data', 'cursor'],
    properties: {
      data,
      cursor: { type: ['string', 'null'], description: 'Fetches the next page; null on the last' },
    },
  };
}

function single(schema: JsonSchema): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['data'],
    properties: { data: schema },
  };
}
