import { Injectable } from '@nestjs/common';
import { newRow, WriteEvent, WriteListener } from '@app/resource-kit';
import { Event } from './event.entity';

/**
 * Records every successful write as an event, in the write's own transaction: either both
 * are stored or neither. The event acts for the caller; sign-up and log-in act for the user
 * they create or log in.
 */
@Injectable()
export class EventsRecorder implements WriteListener {
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
  }
}
