import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ResourceModule, WRITE_LISTENER } from '@app/resource-kit';
import { MetricsModule } from '../../metrics/metrics.module';
import { Event } from './event.entity';
import { EventSinks } from './event-sinks';
import { EventsRecorder } from './events.recorder';
import { EventPublication } from './listeners/event-publication.entity';
import { EventPublications } from './listeners/event-publications';
import { AsyncApiController } from './publishing/asyncapi.controller';
import { EventRelay } from './publishing/event-relay';
import { OutboxEntry } from './publishing/outbox-entry.entity';

@Module({
  controllers: [AsyncApiController],
  imports: [
    ResourceModule.forFeature(Event),
    TypeOrmModule.forFeature([OutboxEntry, EventPublication]),
    MetricsModule,
  ],
  providers: [
    EventsRecorder,
    { provide: WRITE_LISTENER, useExisting: EventsRecorder },
    EventSinks,
    EventRelay,
    EventPublications,
  ],
  exports: [EventSinks],
})
export class EventsModule {}
