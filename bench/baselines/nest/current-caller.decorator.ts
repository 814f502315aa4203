import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Caller } from './shop.auth';

export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    context.switchToHttp().getRequest<{ user: Caller }>().user,
);
