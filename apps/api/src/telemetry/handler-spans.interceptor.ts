import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { ResourceDomains } from '../domains/resource-domains';
import { routeOf } from '../logging/request-log.middleware';

/**
 * A span for each Nest route handler, `<Controller>.<handler>`, as the OpenTelemetry Nest
 * instrumentation names it. That instrumentation does not patch Nest 12 yet (its supported
 * versions end below 12, and Nest 12's ESM files never pass the require hook it relies on),
 * so the service opens the span itself, as an interceptor: on every route, resources too.
 */
@Injectable()
export class HandlerSpansInterceptor implements NestInterceptor {
  private readonly tracer = trace.getTracer('shop-api/nest');

  constructor(private readonly domains: ResourceDomains) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const controller = context.getClass().name;
    const handler = context.getHandler().name;
    const request = context.switchToHttp().getRequest<Request>();
    const attributes = {
      'nestjs.type': 'handler',
      'nestjs.controller': controller,
      'nestjs.callback': handler,
      'http.request.method': request.method,
      'shop.domain': this.domains.ofRoute(routeOf(request)),
    };
    return new Observable((subscriber) =>
      // The handler runs in the span's context: the kit's and the SQL spans are its children.
      this.tracer.startActiveSpan(`${controller}.${handler}`, { attributes }, (span) =>
        next.handle().subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => {
            span.recordException(error as Error);
            span.setStatus({ code: SpanStatusCode.ERROR });
            span.end();
            subscriber.error(error);
          },
          complete: () => {
            span.end();
            subscriber.complete();
          },
        }),
      ),
    );
  }
}
