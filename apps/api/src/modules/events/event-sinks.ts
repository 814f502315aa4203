import { Injectable } from '@nestjs/common';
import type { ResourceDefinition, WriteContext } from '@app/resource-kit';
import type { Event } from './event.entity';

/** An event the recorder has just written, with what a sink needs to pass it on. */
export interface RecordedEvent {
  readonly event: Event;
  /** The event as GET /events/{id} shows it: what consumers receive. */
  readonly body: string;
  /** The resource whose write it records. */
  readonly definition: ResourceDefinition;
  /** The written row's tenant, for a tenant-scoped resource (SPEC 1.15). */
  readonly tenant?: string;
}

/**
 * What another module does with every event, inside the write's transaction: rows it records
 * through `write.record` commit with the write or not at all.
 */
export interface EventSink {
  eventRecorded(recorded: RecordedEvent, write: WriteContext): void;
}

/**
 * The sinks of the service's events. A module that consumes them (webhooks) adds its own when
 * it starts, so that the events module knows none of them.
 */
@Injectable()
export class EventSinks {
  private readonly sinks: EventSink[] = [];

  add(sink: EventSink): void {
    this.sinks.push(sink);
  }

  tell(recorded: RecordedEvent, write: WriteContext): void {
    for (const sink of this.sinks) sink.eventRecorded(recorded, write);
  }
}
