import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { viewOf } from '../auth/caller';
import { parseInput, type ResourceInput } from '../validation/input.parser';
import type { InputMode } from '../validation/input.schema';
import { resourceCallOf, type ResourceCall } from './resource.guard';

/**
 * The `data` of a create's or an update's body, as the caller wrote it: wire names, JSON
 * values, checked against the published input schema in the caller's view (SPEC 1.4, 1.16).
 * Frozen: an override that changes a member passes a new object to the base operation, which
 * checks it again.
 */
export type ResourceData = Readonly<Record<string, unknown>>;

// The input each checked `data` was parsed into, so that the base operation, handed the very
// object the decorator gave, does not parse it twice.
const parsed = new WeakMap<ResourceData, ResourceInput>();

/**
 * The route parameter of a create's or an update's checked `data`: a problem is a 400 in the
 * error envelope before the route method runs, and Nest's pipes on the parameter (global,
 * controller, method, the parameter's own) receive the checked value.
 * @example
 *   @Override()
 *   override create(@ResourceData() data: ResourceData, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
 *     return super.create({ ...data, title: String(data.title).trim() }, request, response);
 *   }
 */
export const ResourceData = createParamDecorator(
  (_: unknown, context: ExecutionContext): ResourceData => {
    const request = context.switchToHttp().getRequest<Request>();
    const call = resourceCallOf(request);
    const data = (request.body as { data?: unknown } | undefined)?.data;
    const input = parseInput(
      request.body,
      viewOf(call.service.definition, call.caller),
      modeOf(call),
      call.id,
    );
    const checked = deepFreeze(data as ResourceData);
    parsed.set(checked, input);
    return checked;
  },
);

/** The input the base operation writes: the decorator's, or `data` checked again when it is new. */
export function inputOf(call: ResourceCall, data: ResourceData): ResourceInput {
  return (
    parsed.get(data) ??
    parseInput({ data }, viewOf(call.service.definition, call.caller), modeOf(call), call.id)
  );
}

function modeOf(call: ResourceCall): InputMode {
  if (call.operation === 'create') return 'create';
  if (call.operation === 'update') return 'patch';
  throw new Error(`@ResourceData() is the input of create and update, not of ${call.operation}`);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
