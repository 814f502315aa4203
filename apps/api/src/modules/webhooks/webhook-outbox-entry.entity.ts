import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An event waiting to be handed to the webhook endpoints it matches: written in the write's
 * own transaction with the event, removed when its deliveries are made. Like the published
 * events' outbox (OutboxEntry), its migrations are written by hand.
 */
@Entity('webhook_outbox', { synchronize: false })
export class WebhookOutboxEntry {
  /** The order of recording, which every endpoint receives its events in. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  position!: string;

  @Column({ name: 'event_id', type: 'varchar', length: 36 })
  eventId!: string;

  @Column({ name: 'subject_type', type: 'varchar', length: 64 })
  subjectType!: string;

  @Column({ type: 'varchar', length: 16 })
  action!: string;

  /** `{"data": <the event as GET /events/{id} shows it>}`. */
  @Column({ type: 'text' })
  body!: string;

  @Column({ name: 'recorded_at', type: Date })
  recordedAt!: Date;

  /** The tenant of the write that recorded the event, if any: only its endpoints receive it. */
  @Column({ name: 'tenant_id', type: 'varchar', length: 64, nullable: true })
  tenantId!: string | null;

  /** The W3C traceparent of the write that recorded the event: each attempt's span links to it. */
  @Column({ name: 'trace_parent', type: 'varchar', length: 55, nullable: true })
  traceParent!: string | null;
}
