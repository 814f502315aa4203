import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ResourceModule, WRITE_LISTENER } from '@app/resource-kit';
import { MetricsModule } from '../../metrics/metrics.module';
import { Event } from './event.entity';
import { EventsRecorder } from './events.recorder';
import { EventRelay } from './publishing/event-relay';
import { OutboxEntry } from './publishing/outbox-entry.entity';

@Module({
  imports: [
    ResourceModule.forFeature(Event),
    TypeOrmModule.forFeature([OutboxEntry]),
    MetricsModule,
  ],
  providers: [EventsRecorder, { provide: WRITE_LISTENER, useExisting: EventsRecorder }, EventRelay],
})
export class EventsModule {}
