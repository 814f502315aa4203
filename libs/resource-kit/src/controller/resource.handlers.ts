import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { assertPermitted } from '../auth/authenticator';
import type { Caller } from '../auth/caller';
import { isPrivate, NO_STORE } from '../http/cache-control';
import { clientAddressOf } from '../http/client-address';
import { notFound } from '../errors/kit.error';
import { writeAnswer, type Answer } from '../http/answer';
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
import { parseInput } from '../validation/input.parser';
import type { PathShape } from './operation';
import type { RequestContext } from './request-context';
import { ResourceRegistry } from './resource-registry';
import { queryStringOf } from './resource-path.parser';
import type { ResourceCall } from './resource.guard';
import { traced } from './operation.span';

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

  /** Runs the call's operation and writes its answer. */
  async answer(call: ResourceCall, request: Request, response: Response): Promise<void> {
    const { tracer } = this.options;
    const answer = tracer
      ? await traced(tracer, call, request, () => this.run(call, request, response))
      : await this.run(call, request, response);
    writeAnswer(request, response, answer);
  }

  private run(call: ResourceCall, request: Request, response: Response): Promise<Answer> {
    if (call.path.relationship !== undefined) {
      return this.related(call, request, response, call.path.relationship);
    }
    switch (call.operation) {
      case 'list':
        return this.list(call, request);
      case 'create':
        return this.create(call, request, response);
      case 'read':
        return this.read(call, request);
      case 'update':
        return this.update(call, request, response);
      case 'delete':
        return this.remove(call, request);
    }
  }

  private async list({ service, caller }: ResourceCall, request: Request): Promise<Answer> {
    const { definition } = service;
    const query = this.query(request, 'collection', definition);
    const page = await service.list(query, contextOf(request, caller));
    return this.ok(ResourceResponse.collection(definition, page.entities, page.cursor));
  }

  private async read({ service, caller, id }: ResourceCall, request: Request): Promise<Answer> {
    const { filters } = this.query(request, 'item', service.definition);
    const entity = await service.read(id!, contextOf(request, caller), filters);
    return this.ok(ResourceResponse.single(service.definition, entity));
  }

  /**
   * The body's shape is checked and the `prepareCreate` hook runs before the Idempotency-Key
   * is looked at, so a repeat passes the same checks (a log-in's throttle and password) as its
   * original; references are checked after, since a repeat must not be judged against today's
   * data (the checked-out cart items are gone).
   */
  private async create(
    { service, caller }: ResourceCall,
    request: Request,
    response: Response,
  ): Promise<Answer> {
    // A deprecated creation says so in every answer it gives (SPEC 1.9).
    response.set(deprecationHeadersOf(service.definition));
    const bodyProblem = await this.body.read(request, response);
    if (bodyProblem) throw bodyProblem;
    const context = contextOf(request, caller);
    const input = parseInput(request.body, service.definition, 'create');
    const prepared = await service.prepareCreation(input, context);
    const create = async (claim?: Claim): Promise<Answer> => {
      const claimed = claim ? { ...context, idempotency: claim } : context;
      await assertReferencesVisible(service.definition, input, claimed, this.registry);
      const entity = await service.create(input, claimed, prepared);
      return this.ok(ResourceResponse.single(service.definition, entity, true), 201);
    };
    return service.definition.idempotency === false
      ? create()
      : this.idempotency.once(request, create, (data) => service.replay(data, context));
  }

  private async update(
    { service, caller, id }: ResourceCall,
    request: Request,
    response: Response,
  ): Promise<Answer> {
    const bodyProblem = await this.body.read(request, response);
    if (bodyProblem) throw bodyProblem;
    const context = contextOf(request, caller);
    const input = parseInput(request.body, service.definition, 'patch', id);
    await assertReferencesVisible(service.definition, input, context, this.registry);
    const entity = await service.update(id!, input, context);
    return this.ok(ResourceResponse.single(service.definition, entity));
  }

  private async remove({ service, caller, id }: ResourceCall, request: Request): Promise<Answer> {
    const entity = await service.remove(id!, contextOf(request, caller));
    return this.ok(ResourceResponse.single(service.definition, entity));
  }

  /**
   * GET /type/{id}/{relationship}: the owner must be visible, and the caller allowed to read
   * (to-one) or list (to-many) the related resources themselves.
   */
  private async related(
    { service, caller, id }: ResourceCall,
    request: Request,
    response: Response,
    relationship: string,
  ): Promise<Answer> {
    const { definition } = service;
    const toOne = definition.toOne.get(relationship);
    const toMany = definition.toMany.get(relationship);
    if (!toOne && !toMany) throw notFound(`${definition.type} has no relationship ${relationship}`);
    const context = contextOf(request, caller);
    const owner = (await service.read(id!, context)) as unknown as Record<string, unknown>;
    const related = this.registry.serviceOf((toOne?.reference ?? toMany)!.target());
    const operation = toOne ? 'read' : 'list';
    assertPermitted(related.definition.access.get(operation) ?? 'admin', caller);
    if (isPrivate(related.definition, operation)) response.set(NO_STORE);
    if (toOne) {
      const { filters } = this.query(request, 'to-one', related.definition);
      const targetId = owner[toOne.property] as string | null;
      if (targetId === null) return { status: 200, body: { data: null } };
      const entity = await related.read(targetId, context, filters);
      return this.ok(ResourceResponse.single(related.definition, entity));
    }
    const query = this.query(request, 'relationship', related.definition);
    const page = await related.list(query, context, { property: toMany!.inverse, id: id! });
    return this.ok(ResourceResponse.collection(related.definition, page.entities, page.cursor));
  }

  private query(request: Request, shape: PathShape | 'to-one', definition: ResourceDefinition) {
    return parseResourceQuery(queryStringOf(request.url), shape, definition, {
      pagination: this.options.pagination,
      limits: this.options.pageSize,
    });
  }

  private ok(response: ResourceResponse, status = 200): Answer {
    return { status, body: envelope(response, this.options.validateOutput) };
  }
}

/** What the service needs to know of the request: who asks, from where, on what condition. */
function contextOf(request: Request, caller?: Caller): RequestContext {
  const ifMatch = request.headers['if-match'];
  return {
    ...(caller && { caller }),
    clientAddress: clientAddressOf(request.ip),
    ...(ifMatch !== undefined && { ifMatch }),
  };
}
