import {
  All,
  applyDecorators,
  Controller,
  createParamDecorator,
  Delete,
  ExecutionContext,
  Get,
  Header,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Type,
} from '@nestjs/common';
import type { Request } from 'express';
import { notFound } from '../errors/kit.error';
import { deprecationHeadersOf } from '../http/deprecation-headers';
import type { ResourceDefinition } from '../metadata/definition';
import { parseResourceQuery } from '../query/query-parameters.parser';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { ResourceResponse } from '../serialization/resource-response';
import { createInputPipe, ResourceBody } from '../validation/input.pipe';
import type { ResourceInput } from '../validation/input.parser';
import { ForResource, HandlesOperation } from './operation';
import type { RequestContext } from './request-context';
import { Context } from './request-context.decorator';
import { ResourceRegistry } from './resource-registry';
import { ResourceService } from './resource.service';

/** The raw query string of the request (parsed by the kit, not by Express). */
const RawQuery = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const url = ctx.switchToHttp().getRequest<Request>().originalUrl;
  const start = url.indexOf('?');
  return start === -1 ? '' : url.slice(start + 1);
});

/**
 * Builds the controller of one resource: the six path patterns of SPEC 1.1 and a 405
 * fallback for every other verb. Handlers only translate HTTP to the resource's service.
 */
export function createResourceController(
  declared: ResourceDefinition,
  serviceToken: Type<ResourceService>,
): Type {
  const CreatePipe = createInputPipe(serviceToken, 'create');
  const PatchPipe = createInputPipe(serviceToken, 'patch');

  @Controller(declared.type)
  @ForResource(declared)
  class ResourceController {
    constructor(
      @Inject(serviceToken) private readonly service: ResourceService,
      @Inject(ResourceRegistry) private readonly registry: ResourceRegistry,
      @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
    ) {}

    private parse(
      query: string,
      shape: Parameters<typeof parseResourceQuery>[1],
      definition: ResourceDefinition,
    ) {
      return parseResourceQuery(query, shape, definition, {
        pagination: this.options.pagination,
        limits: this.options.pageSize,
      });
    }

    // Wire names follow the service's key casing, which the service's definition carries.
    private get definition(): ResourceDefinition {
      return this.service.definition;
    }

    @Get()
    @HandlesOperation({ shape: 'collection', operation: 'list' })
    async list(@RawQuery() query: string, @Context() context: RequestContext) {
      const page = await this.service.list(
        this.parse(query, 'collection', this.definition),
        context,
      );
      return ResourceResponse.collection(this.definition, page.entities, page.cursor);
    }

    @Post()
    @HttpCode(201)
    @HandlesOperation({ shape: 'collection', operation: 'create' })
    // A deprecated creation says so in every answer it gives (SPEC 1.9).
    @applyDecorators(
      ...Object.entries(deprecationHeadersOf(declared)).map(([n, v]) => Header(n, v)),
    )
    async create(
      @ResourceBody(CreatePipe) input: ResourceInput,
      @Context() context: RequestContext,
    ) {
      return ResourceResponse.single(
        this.definition,
        await this.service.create(input, context),
        true,
      );
    }

    @Get(':id')
    @HandlesOperation({ shape: 'item', operation: 'read' })
    async read(
      @Param('id') id: string,
      @RawQuery() query: string,
      @Context() context: RequestContext,
    ) {
      const { filters } = this.parse(query, 'item', this.definition);
      return ResourceResponse.single(
        this.definition,
        await this.service.read(id, context, filters),
      );
    }

    @Patch(':id')
    @HandlesOperation({ shape: 'item', operation: 'update' })
    async update(
      @Param('id') id: string,
      @ResourceBody(PatchPipe) input: ResourceInput,
      @Context() context: RequestContext,
    ) {
      return ResourceResponse.single(
        this.definition,
        await this.service.update(id, input, context),
      );
    }

    @Delete(':id')
    @HandlesOperation({ shape: 'item', operation: 'delete' })
    async remove(@Param('id') id: string, @Context() context: RequestContext) {
      return ResourceResponse.single(this.definition, await this.service.remove(id, context));
    }

    @Get(':id/:relationship')
    @HandlesOperation({ shape: 'relationship', operation: 'read' })
    async related(
      @Param('id') id: string,
      @Param('relationship') name: string,
      @RawQuery() query: string,
      @Context() context: RequestContext,
    ) {
      const toOne = this.definition.toOne.get(name);
      const toMany = this.definition.toMany.get(name);
      if (!toOne && !toMany) throw notFound(`${this.definition.type} has no relationship ${name}`);
      const owner = (await this.service.read(id, context)) as unknown as Record<string, unknown>;
      if (toOne) {
        const target = this.registry.serviceOf(toOne.reference!.target());
        const { filters } = this.parse(query, 'to-one', target.definition);
        const targetId = owner[toOne.property] as string | null;
        return targetId === null
          ? null
          : ResourceResponse.single(
              target.definition,
              await target.read(targetId, context, filters),
            );
      }
      const target = this.registry.serviceOf(toMany!.target());
      const page = await target.list(
        this.parse(query, 'relationship', target.definition),
        context,
        {
          property: toMany!.inverse,
          id,
        },
      );
      return ResourceResponse.collection(target.definition, page.entities, page.cursor);
    }

    // Registered last: any verb the routes above did not take.
    @All()
    @HandlesOperation({ shape: 'collection' })
    collectionFallback(): never {
      throw new Error('unreachable: AccessGuard answers 405');
    }

    @All(':id')
    @HandlesOperation({ shape: 'item' })
    itemFallback(): never {
      throw new Error('unreachable: AccessGuard answers 405');
    }

    @All(':id/:relationship')
    @HandlesOperation({ shape: 'relationship' })
    relationshipFallback(): never {
      throw new Error('unreachable: AccessGuard answers 405');
    }
  }

  Object.defineProperty(ResourceController, 'name', {
    value: `${declared.type}:ResourceController`,
  });
  return ResourceController;
}
