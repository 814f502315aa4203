import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An event waiting to be published (the transactional outbox): written in the write's own
 * transaction with the event row, removed once the broker has stored the message. Only written
 * while publishing is configured; the table holds what has not been published yet.
 *
 * Its migrations are written by hand and the schema check leaves it out: the position is a
 * bigint on PostgreSQL, but SQLite increments only an INTEGER PRIMARY KEY (also 64-bit),
 * which TypeORM cannot declare for both engines at once.
 */
@Entity('event_outbox', { synchronize: false })
export class OutboxEntry {
  /** The order of recording; the relay publishes in this order. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  position!: string;

  @Column({ name: 'event_id', type: 'varchar', length: 36 })
  eventId!: string;

  /** The NATS subject (events.recorder.ts, `eventSubject`): a tenant's name may be long. */
  @Column({ type: 'varchar', length: 1024 })
  subject!: string;

  /** The message body: `{"data": <the event as GET /events/{id} shows it>}`. */
  @Column({ type: 'text' })
  body!: string;

  /** When the write recorded it: the relay's lag is measured from here. */
  @Column({ name: 'recorded_at', type: Date })
  recordedAt!: Date;
}
