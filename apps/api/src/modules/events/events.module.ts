import { Module } from '@nestjs/common';
import { ResourceModule, WRITE_LISTENER } from '@app/resource-kit';
import { Event } from './event.entity';
import { EventsRecorder } from './events.recorder';

@Module({
  imports: [ResourceModule.forFeature(Event)],
  providers: [EventsRecorder, { provide: WRITE_LISTENER, useExisting: EventsRecorder }],
})
export class EventsModule {}
