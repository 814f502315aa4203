import { Inject, Injectable } from '@nestjs/common';
import {
  newRow,
  ResourceRegistry,
  serializeResource,
  WriteEvent,
  WriteListener,
} from '@app/resource-kit';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Event } from './event.entity';
import { EventSinks } from './event-sinks';
import { EventPublications } from './listeners/event-publications';
import { OutboxEntry } from './publishing/outbox-entry.entity';

/**
 * Records every successful write as an event, in the write's own transaction: either both
 * are stored or neither. The event acts for the caller; sign-up and log-in act for the user
 * they create or log in. The same transaction gives the event to the sinks other modules add
 * (the webhook outbox), records its publication to the `@OnCommitted` listeners that hear it,
 * and, with publishing configured, puts its message in the outbox the relay publishes. The event of a tenant-scoped write is its tenant's (SPEC 1.15): the kit
 * records it so, and its message goes to the tenant's own subjects.
 */
@Injectable()
export class EventsRecorder implements WriteListener {
  private readonly publishing: boolean;
  private readonly subjectPrefix: string;

  constructor(
    @Inject(APP_CONFIG) { eventPublishing }: AppConfig,
    private readonly registry: ResourceRegistry,
    private readonly sinks: EventSinks,
    private readonly publications: EventPublications,
  ) {
    this.publishing = eventPublishing.url !== undefined;
    this.subjectPrefix = eventPublishing.subjectPrefix;
  }

  onWrite({ action, definition, entity, context, tenant }: WriteEvent): void {
    const subject = entity as { id: string; userId?: string };
    const userId =
      context.caller?.id ?? (definition.type === 'users' ? subject.id : subject.userId);
    if (!userId) return;
    const row = newRow();
    const event = context.manager.create(Event, {
      ...row,
      occurredAt: row.createdAt,
      action,
      userId,
    });
    event.subject = { type: definition.type, id: subject.id };
    context.record(Event, event);
    const body = this.bodyOf(event);
    this.sinks.tell({ event, body, definition, tenant }, context);
    this.publications.record(event, definition.entity, context);
    if (this.publishing) {
      context.record(OutboxEntry, {
        eventId: event.id,
        subject: eventSubject(this.subjectPrefix, event.subject.type, action, tenant),
        body,
        recordedAt: event.createdAt,
      });
    }
  }

  // What a consumer and a webhook receive: the event as GET /events/{id} shows it, from the
  // definition the kit serves it with (its key casing included).
  private bodyOf(event: Event): string {
    const { definition } = this.registry.serviceOf(Event);
    return JSON.stringify({ data: serializeResource(definition, event, { created: false }) });
  }
}

/**
 * The NATS subject of an event: `<prefix>.<type>.<action>`, or for a tenant's event
 * `<prefix>.tenants.<tenant>.<type>.<action>`, so that a tenant's consumers may be allowed its
 * subjects alone. The tenant is one subject token: percent-encoded as in a URI, and the
 * characters a URI leaves as they are but a token may not hold (`.`, `*`) or that would read
 * as something else (`!~'()`) too.
 */
export function eventSubject(
  prefix: string,
  type: string,
  action: string,
  tenant?: string,
): string {
  if (tenant === undefined) return `${prefix}.${type}.${action}`;
  const token = encodeURIComponent(tenant).replace(
    /[.!~*'()]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${prefix}.tenants.${token}.${type}.${action}`;
}
