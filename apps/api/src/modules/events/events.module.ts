import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ResourceModule, WRITE_LISTENER } from '@app/resource-kit';
import { MetricsModule } from '../../metrics/metrics.module';
import { Event } from './event.entity';
import { EventSinks } from './event-sinks';
import { EventsRecorder } from './events.recorder';
import { AsyncApiController } from './publishing/asyncapi.controller';
import { EventRelay } from './publishing/event-relay';
import { OutboxEntry } from './publishing/outbox-entry.entity';

@Module({
  controllers: [AsyncApiController],
  imports: [
    ResourceModule.forFeature(Event),
    TypeOrmModule.forFeature([OutboxEntry]),
    MetricsModule,
  ],
  providers: [
    EventsRecorder,
    { provide: WRITE_LISTENER, useExisting: EventsRecorder },
    EventSinks,
    EventRelay,
  ],
  exports: [EventSinks],
})
export class EventsModule {}
