import { Column, Index } from 'typeorm';
import { Attribute, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import { Event } from '../events/event.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event for one endpoint (SPEC 1.17): made when the event is handed out, then updated by
 * each attempt until it succeeds or its retries run out. Of its endpoint's tenant, if any.
 */
@Resource({
  type: 'webhook_deliveries',
  description:
    'One event for one webhook endpoint, with the outcome of its latest attempt. Administrators only.',
  access: { list: 'admin', read: 'admin' },
  tenant: 'inherited',
})
// The endpoint's deliveries in order: the worker looks for each endpoint's oldest pending one.
@Index(['webhookEndpointId', 'status', 'position'])
export class WebhookDelivery extends ResourceEntity {
  @ToOne(() => WebhookEndpoint, {
    writable: false,
    onDelete: 'CASCADE',
    description: 'Where it goes',
  })
  webhookEndpointId!: string;

  /** Its endpoint's tenant, if any (the kit's column). */
  declare tenantId: string | null;

  @ToOne(() => Event, { writable: false, description: 'What it delivers' })
  eventId!: string;

  @Attribute({ type: 'integer', writable: false, min: 0, description: 'Attempts made so far' })
  attempt!: number;

  @Attribute({
    type: 'enum',
    values: DELIVERY_STATUSES,
    writable: false,
    description: 'pending until an attempt succeeds (succeeded) or the retries run out (failed)',
  })
  status!: DeliveryStatus;

  @Attribute({
    type: 'integer',
    writable: false,
    nullable: true,
    description: "The HTTP status of the latest attempt's answer; null when none came",
  })
  responseStatus!: number | null;

  @Attribute({
    type: 'integer',
    writable: false,
    nullable: true,
    description: 'How long the latest attempt took, in milliseconds',
  })
  durationMs!: number | null;

  @Attribute({
    type: 'time',
    writable: false,
    nullable: true,
    description: 'When the next attempt is due; null once succeeded or failed',
  })
  nextAttemptAt!: Date | null;

  /** The event's place in the order of recording: each endpoint receives its events in it. */
  @Column({ type: 'bigint' })
  position!: string;

  /** The body sent: `{"data": <the event>}`, as GET /events/{id} showed it when recorded. */
  @Column({ type: 'text' })
  payload!: string;

  /** Until when one instance attempts it: no other takes it meanwhile (SPEC 1.17). */
  @Column({ name: 'leased_until', type: Date, nullable: true })
  leasedUntil!: Date | null;

  /** The W3C traceparent of the write that recorded the event: each attempt's span links to it. */
  @Column({ name: 'trace_parent', type: 'varchar', length: 55, nullable: true })
  traceParent!: string | null;
}
