import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { assertPermitted } from '../auth/authenticator';
import { viewOf, type Caller } from '../auth/caller';
import { isPrivate, NO_STORE } from '../http/cache-control';
import { notFound } from '../errors/kit.error';
import { expectAnswer, expectResource, type Envelope } from '../http/answer';
import { IdempotencyGate } from '../idempotency/idempotency.gate';
import type { Claim } from '../idempotency/idempotency.store';
import type { EntityClass, ResourceDefinition } from '../metadata/definition';
import { inView } from '../metadata/views';
import type { Page } from '../persistence/selection';
import { parseResourceQuery } from '../query/query-parameters.parser';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { serializeResource } from '../serialization/resource.serializer';
import { assertReferencesVisible } from '../service/input-references';
import type { PathShape } from '../query/query-parameters.parser';
import type { RequestContext } from '../service/request-context';
import { ResourceRegistry } from '../service/resource-registry';
import { queryStringOf } from './resource-path.parser';
import type { ResourceCall } from './resource.guard';
import { inputOf, type ResourceData } from './resource-data.decorator';
import { traced } from './operation.span';

/**
 * The operations of SPEC 1.1, each from a request to its answer as a value: queries are parsed
 * and validated here (a write's `data` arrives checked, from `@ResourceData()`), the
 * resource's service does the work. The answer is checked against its declaration when it is
 * written (http/answer.ts), after interceptors.
 */
@Injectable()
export class ResourceHandlers {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly idempotency: IdempotencyGate,
    @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
  ) {}

  list(call: ResourceCall, request: Request): Promise<Envelope> {
    return this.run(call, request, async ({ service, caller }) => {
      const view = viewOf(service.definition, caller);
      const query = this.query(request, 'collection', view, caller);
      const page = await service.list(query, contextOf(request, caller));
      return this.page(request, view, page);
    });
  }

  read(call: ResourceCall, request: Request): Promise<Envelope> {
    return this.run(call, request, async ({ service, caller, id }) => {
      const view = viewOf(service.definition, caller);
      const { filters } = this.query(request, 'item', view, caller);
      const entity = await service.read(id!, contextOf(request, caller), filters);
      return this.one(request, view, entity);
    });
  }

  /**
   * The body's shape is checked (by `@ResourceData()`) and the `prepareCreate` hook runs
   * before the Idempotency-Key is looked at, so a repeat passes the same checks (a log-in's
   * throttle and password) as its original; references are checked after, since a repeat must
   * not be judged against today's data (the checked-out cart items are gone).
   */
  create(
    call: ResourceCall,
    data: ResourceData,
    request: Request,
    response: Response,
  ): Promise<Envelope> {
    return this.run(call, request, async ({ service, caller }) => {
      const { definition } = service;
      // The creator writes what the row's owner may write (SPEC 1.16).
      const view = viewOf(definition, caller);
      const context = contextOf(request, caller);
      const input = inputOf(call, data);
      const prepared = await service.prepareCreation(input, context);
      const create = async (claim?: Claim): Promise<Envelope> => {
        const claimed = claim ? { ...context, idempotency: claim } : context;
        await assertReferencesVisible(view, input, claimed, this.registry);
        const entity = await service.create(input, claimed, prepared);
        return { data: serializeResource(view, entity, { created: true }) };
      };
      const created =
        definition.idempotency === false
          ? await create()
          : await this.idempotency.once(request, response, create, async (data) =>
              // A stored answer is given again in the caller's view of today (SPEC 1.16).
              inView(view, await service.replay(data, context)),
            );
      // A row the resource's logic gave someone else shows the creator only their own level.
      const shown = viewOf(definition, caller, created.data as Record<string, unknown>);
      const answer =
        shown === view ? created : { data: inView(shown, created.data as Record<string, unknown>) };
      // Declared once there is an answer: a failure is the exception filter's to write.
      expectResource(request, shown, answer.data as Record<string, unknown>, true);
      return answer;
    });
  }

  update(call: ResourceCall, data: ResourceData, request: Request): Promise<Envelope> {
    return this.run(call, request, async ({ service, caller, id }) => {
      const context = contextOf(request, caller);
      const view = viewOf(service.definition, caller);
      const input = inputOf(call, data);
      await assertReferencesVisible(view, input, context, this.registry);
      const entity = await service.update(id!, input, context);
      return this.one(request, view, entity);
    });
  }

  delete(call: ResourceCall, request: Request): Promise<Envelope> {
    return this.run(call, request, async ({ service, caller, id }) => {
      const entity = await service.remove(id!, contextOf(request, caller));
      return this.one(request, viewOf(service.definition, caller), entity);
    });
  }

  /**
   * GET /type/{id}/{relationship}: the owner must be visible, and the caller allowed to read
   * (to-one) or list (to-many) the related resources themselves.
   */
  related(call: ResourceCall, request: Request, response: Response): Promise<Envelope> {
    return this.run(call, request, async ({ service, caller, id, relationship }) => {
      const { definition } = service;
      const toOne = definition.toOne.get(relationship!);
      const toMany = definition.toMany.get(relationship!);
      if (!toOne && !toMany) {
        throw notFound(`${definition.type} has no relationship ${relationship}`);
      }
      const context = contextOf(request, caller);
      const owner = (await service.read(id!, context)) as unknown as Record<string, unknown>;
      const related = this.registry.serviceOf((toOne?.reference ?? toMany)!.target());
      const operation = toOne ? 'read' : 'list';
      assertPermitted(related.definition.access.get(operation) ?? 'admin', caller);
      if (isPrivate(related.definition, operation)) response.set(NO_STORE);
      const view = viewOf(related.definition, caller);
      if (toOne) {
        const { filters } = this.query(request, 'to-one', view, caller);
        const targetId = owner[toOne.property] as string | null;
        if (targetId === null) {
          expectAnswer(request, { definition: view, created: false, page: false });
          return { data: null };
        }
        const entity = await related.read(targetId, context, filters);
        return this.one(request, view, entity);
      }
      const query = this.query(request, 'relationship', view, caller);
      const page = await related.list(query, context, { property: toMany!.inverse, id: id! });
      return this.page(request, view, page);
    });
  }

  private run(
    call: ResourceCall,
    request: Request,
    work: (call: ResourceCall) => Promise<Envelope>,
  ): Promise<Envelope> {
    const { tracer } = this.options;
    return tracer ? traced(tracer, call, request, () => work(call)) : work(call);
  }

  // Filters and orders name only what the caller may read, on related resources too.
  private query(
    request: Request,
    shape: PathShape | 'to-one',
    view: ResourceDefinition,
    caller: Caller | undefined,
  ) {
    return parseResourceQuery(queryStringOf(request.url), shape, view, {
      pagination: this.options.pagination,
      limits: this.options.pageSize,
      definitionOf: (entity: EntityClass) =>
        viewOf(this.registry.serviceOf(entity).definition, caller),
    });
  }

  private one(request: Request, definition: ResourceDefinition, entity: object): Envelope {
    const data = serializeResource(definition, entity, { created: false });
    expectResource(request, definition, data, false);
    return { data };
  }

  private page(request: Request, definition: ResourceDefinition, page: Page<object>): Envelope {
    expectAnswer(request, { definition, created: false, page: true });
    const data = page.entities.map((entity) =>
      serializeResource(definition, entity, { created: false }),
    );
    // Only cursor pagination has a cursor; offset styles answer `{data}` alone.
    return page.cursor === undefined ? { data } : { data, cursor: page.cursor };
  }
}

/** What the service needs to know of the request: who asks, from where, on what condition. */
function contextOf(request: Request, caller?: Caller): RequestContext {
  const ifMatch = request.headers['if-match'];
  return {
    ...(caller && { caller }),
    origin: request,
    ...(ifMatch !== undefined && { ifMatch }),
  };
}
