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
import { OutboxEntry } from './publishing/outbox-entry.entity';

/**
 * Records every successful write as an event, in the write's own transaction: either both
 * are stored or neither. The event acts for the caller; sign-up and log-in act for the user
 * they create or log in. With publishing configured, the same transaction puts the event's
 * message in the outbox, which the relay publishes after commit.
 */
@Injectable()
export class EventsRecorder implements WriteListener {
  private readonly publishing: boolean;
  private readonly subjectPrefix: string;

  constructor(
    @Inject(APP_CONFIG) { eventPublishing }: AppConfig,
    private readonly registry: ResourceRegistry,
  ) {
    this.publishing = eventPublishing.url !== undefined;
    this.subjectPrefix = eventPublishing.subjectPrefix;
  }

  onWrite({ action, definition, entity, context }: WriteEvent): void {
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
    if (this.publishing) context.record(OutboxEntry, this.messageOf(event));
  }

  // The message as a consumer receives it: the event as GET /events/{id} shows it, from the
  // definition the kit serves it with (its key casing included).
  private messageOf(event: Event): Omit<OutboxEntry, 'position'> {
    const { definition } = this.registry.serviceOf(Event);
    const wire = serializeResource(definition, event, { created: false });
    return {
      eventId: event.id,
      subject: `${this.subjectPrefix}.${event.subject.type}.${event.action}`,
      body: JSON.stringify({ data: wire }),
      recordedAt: event.createdAt,
    };
  }
}
