import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Caller } from '../auth/caller';
import { notFound } from '../errors/kit.error';
import type { Answer } from '../http/answer';
import { deprecationHeadersOf } from '../http/deprecation-headers';
import { envelope } from '../serialization/envelope';
import { JsonBodyReader } from '../http/json-body.reader';
import { IdempotencyGate } from '../idempotency/idempotency.gate';
import type { Claim } from '../idempotency/idempotency.store';
import type { ResourceDefinition } from '../metadata/definition';
import { parseResourceQuery } from '../query/query-parameters.parser';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { ResourceResponse } from '../serialization/resource-response';
import { assertReferencesVisible } from '../validation/input-references';
import type { InputMode } from '../validation/input.schema';
import { parseInput, type ResourceInput } from '../validation/input.parser';
import type { PathShape } from './operation';
import type { RequestContext } from './request-context';
import { ResourceRegistry } from './resource-registry';
import { queryStringOf } from './resource-path.parser';
import type { ResourceService } from './resource.service';

/** One resource request on its way to an answer. */
export interface ResourceCall {
  readonly service: ResourceService;
  readonly request: Request;
  readonly response: Response;
  readonly caller?: Caller;
}

export interface ItemCall extends ResourceCall {
  readonly id: string;
}

/**
 * The operations of SPEC 1.1, each from a request to its answer: queries and bodies are
 * parsed and validated here, the resource's service does the work, the envelope is checked.
 */
@Injectable()
export class ResourceHandlers {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly body: JsonBodyReader,
    private readonly idempotency: IdempotencyGate,
    @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
  ) {}

  async list({ service, request, caller }: ResourceCall): Promise<Answer> {
    const { definition } = service;
    const query = this.query(request, 'collection', definition);
    const page = await service.list(query, contextOf(request, caller));
    return this.ok(ResourceResponse.collection(definition, page.entities, page.cursor));
  }

  async read({ service, request, caller, id }: ItemCall): Promise<Answer> {
    const { filters } = this.query(request, 'item', service.definition);
    const entity = await service.read(id, contextOf(request, caller), filters);
    return this.ok(ResourceResponse.single(service.definition, entity));
  }

  async create({ service, request, response, caller }: ResourceCall): Promise<Answer> {
    // A deprecated creation says so in every answer it gives (SPEC 1.9).
    response.set(deprecationHeadersOf(service.definition));
    const bodyProblem = await this.body.read(request, response);
    const create = async (claim?: Claim): Promise<Answer> => {
      if (bodyProblem) throw bodyProblem;
      const context = contextOf(request, caller, claim);
      const input = await this.input(service, request.body, 'create', undefined, context);
      const entity = await service.create(input, context);
      return this.ok(ResourceResponse.single(service.definition, entity, true), 201);
    };
    return service.definition.idempotency === false
      ? create()
      : this.idempotency.once(request, create);
  }

  async update({ service, request, response, caller, id }: ItemCall): Promise<Answer> {
    const bodyProblem = await this.body.read(request, response);
    if (bodyProblem) throw bodyProblem;
    const context = contextOf(request, caller);
    const input = await this.input(service, request.body, 'patch', id, context);
    const entity = await service.update(id, input, context);
    return this.ok(ResourceResponse.single(service.definition, entity));
  }

  async remove({ service, request, caller, id }: ItemCall): Promise<Answer> {
    const entity = await service.remove(id, contextOf(request, caller));
    return this.ok(ResourceResponse.single(service.definition, entity));
  }

  /** GET /type/{id}/{relationship}: the owner must be visible, then its related resources. */
  async related(call: ItemCall & { relationship: string }): Promise<Answer> {
    const { service, request, caller, id, relationship } = call;
    const { definition } = service;
    const toOne = definition.toOne.get(relationship);
    const toMany = definition.toMany.get(relationship);
    if (!toOne && !toMany) throw notFound(`${definition.type} has no relationship ${relationship}`);
    const context = contextOf(request, caller);
    const owner = (await service.read(id, context)) as unknown as Record<string, unknown>;
    if (toOne) {
      const target = this.registry.serviceOf(toOne.reference!.target());
      const { filters } = this.query(request, 'to-one', target.definition);
      const targetId = owner[toOne.property] as string | null;
      if (targetId === null) return { status: 200, body: { data: null } };
      const entity = await target.read(targetId, context, filters);
      return this.ok(ResourceResponse.single(target.definition, entity));
    }
    const target = this.registry.serviceOf(toMany!.target());
    const query = this.query(request, 'relationship', target.definition);
    const page = await target.list(query, context, { property: toMany!.inverse, id });
    return this.ok(ResourceResponse.collection(target.definition, page.entities, page.cursor));
  }

  private query(request: Request, shape: PathShape | 'to-one', definition: ResourceDefinition) {
    return parseResourceQuery(queryStringOf(request.url), shape, definition, {
      pagination: this.options.pagination,
      limits: this.options.pageSize,
    });
  }

  // The shape first (SPEC 1.4), then references, which must name resources the caller sees.
  private async input(
    service: ResourceService,
    body: unknown,
    mode: InputMode,
    id: string | undefined,
    context: RequestContext,
  ): Promise<ResourceInput> {
    const input = parseInput(body, service.definition, mode, id);
    await assertReferencesVisible(service.definition, input, context, this.registry);
    return input;
  }

  private ok(response: ResourceResponse, status = 200): Answer {
    return { status, body: envelope(response, this.options.validateOutput) };
  }
}

/** What the service needs to know of the request: who asks, from where, on what condition. */
function contextOf(request: Request, caller?: Caller, claim?: Claim): RequestContext {
  const ifMatch = request.headers['if-match'];
  return {
    ...(caller && { caller }),
    clientAddress: request.ip,
    ...(ifMatch !== undefined && { ifMatch }),
    ...(claim && { idempotency: claim }),
  };
}
