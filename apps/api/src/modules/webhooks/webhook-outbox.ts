import { Injectable } from '@nestjs/common';
import { context as activeContext, propagation } from '@opentelemetry/api';
import type { WriteContext } from '@app/resource-kit';
import { EventSinks, type EventSink, type RecordedEvent } from '../events/event-sinks';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookOutboxEntry } from './webhook-outbox-entry.entity';
import { WebhookWorker } from './webhook-worker';

/**
 * Puts each event in the webhook outbox, in the write's transaction, which the worker hands
 * out after commit, if an active endpoint wants it then (so that writes nobody subscribes to
 * add no row and no hand-out). Only a tenant's endpoints receive its events.
 */
@Injectable()
export class WebhookOutbox implements EventSink {
  constructor(
    sinks: EventSinks,
    private readonly worker: WebhookWorker,
  ) {
    sinks.add(this);
  }

  eventRecorded({ event, body, definition, tenant }: RecordedEvent, write: WriteContext): void {
    write.record(
      WebhookOutboxEntry,
      {
        eventId: event.id,
        subjectType: event.subject.type,
        action: event.action,
        body,
        recordedAt: event.createdAt,
        tenantId: tenant ?? null,
        traceParent: traceParentOfWrite(),
      },
      // An endpoint's own writes always go in: on PostgreSQL the statement that creates an
      // endpoint cannot see it, and an endpoint receives its own creation.
      definition.entity === WebhookEndpoint
        ? undefined
        : { exists: WebhookEndpoint, where: wantedBy(event.subject.type, event.action, tenant) },
    );
    this.worker.eventRecorded();
  }
}

/**
 * What an active endpoint that wants an event matches, as the worker's hand-out matches it:
 * its subject type and action, or none; for a tenant's event, the tenant's own endpoints.
 */
function wantedBy(subjectType: string, action: string, tenant?: string): Record<string, unknown> {
  return {
    status: 'active',
    subjectType: [null, subjectType],
    action: [null, action],
    ...(tenant !== undefined && { tenantId: tenant }),
  };
}

// The write's trace, when it is traced: a delivery's spans link to it.
function traceParentOfWrite(): string | null {
  const carrier: { traceparent?: string } = {};
  propagation.inject(activeContext.active(), carrier);
  return carrier.traceparent ?? null;
}
