import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The event publication registry (SPEC 1.18): one row per event and `@OnCommitted` listener
 * that hears it, written in the write's transaction with the event, completed once the
 * listener has run through after commit. A row without `completed_at` is a listener still to
 * run: not yet, failed and waiting for its next attempt, or cut short by a crash. Completed rows
 * stay a week, for an operator who asks what ran. Like the outboxes, its migrations are
 * written by hand (a bigint position on PostgreSQL, an INTEGER PRIMARY KEY on SQLite).
 */
@Entity('event_publications', { synchronize: false })
export class EventPublication {
  /** The order of recording: each listener hears a subject's events in this order. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  position!: string;

  @Column({ name: 'event_id', type: 'varchar', length: 36 })
  eventId!: string;

  /** The listener's id, `<Class>.<method>`. */
  @Column({ type: 'varchar', length: 200 })
  listener!: string;

  @Column({ type: 'varchar', length: 16 })
  action!: string;

  @Column({ name: 'subject_type', type: 'varchar', length: 64 })
  subjectType!: string;

  @Column({ name: 'subject_id', type: 'varchar', length: 36 })
  subjectId!: string;

  @Column({ name: 'recorded_at', type: Date })
  recordedAt!: Date;

  /** The runs of the listener on it whose outcome was recorded (a run a crash cut is not). */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** After a failure: not before this time. */
  @Column({ name: 'next_attempt_at', type: Date, nullable: true })
  nextAttemptAt!: Date | null;

  /** The last failure's message. */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'completed_at', type: Date, nullable: true })
  completedAt!: Date | null;
}
