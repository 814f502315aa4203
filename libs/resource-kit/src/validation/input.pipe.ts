import {
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
  PipeTransform,
  Type,
} from '@nestjs/common';
import type { Request } from 'express';
import { ResourceRegistry } from '../controller/resource-registry';
import { invalidInput } from '../errors/kit.error';
import { assertBodyReadable } from '../http/json-body.middleware';
import type { ResourceDefinition } from '../metadata/definition';
import type { InputMode } from './input.schema';
import { parseInput, ResourceInput } from './input.parser';
import { requestContextOf } from '../controller/request-context.decorator';
import type { RequestContext } from '../controller/request-context';
import type { ResourceService } from '../controller/resource.service';

/** What the input pipe reads from a request: the body, the path id and who asks. */
interface RawInput {
  body: unknown;
  id?: string;
  context: RequestContext;
}

/** The request body of a write, validated by the pipe given. */
export const ResourceBody = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): RawInput => {
    const request = ctx.switchToHttp().getRequest<Request>();
    assertBodyReadable(request);
    const id = request.params.id;
    return {
      body: request.body as unknown,
      id: typeof id === 'string' ? id : undefined,
      context: requestContextOf(request),
    };
  },
);

/**
 * The pipe of one resource and mode: shape first (SPEC 1.4), then references, which must
 * name resources that exist and that the caller can see. Nothing invalid passes.
 */
export function createInputPipe(
  serviceToken: Type<ResourceService>,
  mode: InputMode,
): Type<PipeTransform> {
  @Injectable()
  class InputPipe implements PipeTransform<RawInput, Promise<ResourceInput>> {
    constructor(
      @Inject(serviceToken) private readonly service: ResourceService,
      @Inject(ResourceRegistry) private readonly registry: ResourceRegistry,
    ) {}

    async transform({ body, id, context }: RawInput): Promise<ResourceInput> {
      const input = parseInput(body, this.service.definition, mode, id);
      const problems = await this.missingReferences(this.service.definition, input, context);
      if (problems.length > 0) throw invalidInput(problems);
      return input;
    }

    private async missingReferences(
      definition: ResourceDefinition,
      input: ResourceInput,
      context: RequestContext,
    ): Promise<string[]> {
      const checks = definition.attributes
        .filter(
          (attribute) =>
            attribute.reference &&
            input.get(attribute.property) !== undefined &&
            input.get(attribute.property) !== null,
        )
        .map(async (attribute) => {
          const target = this.registry.serviceOf(attribute.reference!.target());
          const value = input.get(attribute.property);
          const ids = Array.isArray(value) ? (value as string[]) : [value as string];
          const visible = await target.visibleIds(ids, context);
          return ids
            .filter((id) => !visible.has(id))
            .map(
              (id) =>
                `data.${attribute.name} refers to no ${target.definition.type} resource` +
                (Array.isArray(value) ? ` (${id})` : ''),
            );
        });
      return (await Promise.all(checks)).flat();
    }
  }
  Object.defineProperty(InputPipe, 'name', { value: `${serviceToken.name}:${mode}:InputPipe` });
  return InputPipe;
}
