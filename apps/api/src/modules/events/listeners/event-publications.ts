import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { DataSource, IsNull, LessThan } from 'typeorm';
import {
  CommittedListeners,
  TransactionRunner,
  type CommittedEvent,
  type EntityClass,
  type WriteContext,
} from '@app/resource-kit';
import { RoundPace } from '../../../database/round-pace';
import { holdsTableLease } from '../../../database/table-lease';
import { MetricsService } from '../../../metrics/metrics.service';
import type { Event } from '../event.entity';
import { EventPublication } from './event-publication.entity';

// Publications run per round: the oldest incomplete one of each listener and subject, if due.
const BATCH_SIZE = 100;
// After a failed round (the database away), the wait before the next.
const RETRY_MS = 1_000;
// A listener still running after this counts as failed, and runs again later.
const TIME_LIMIT_MS = 30_000;
// The wait after a listener's n-th failure: 2^(n-1) seconds, up to ten minutes.
const BACKOFF_MAX_MS = 600_000;
// How long completed publications are kept, and how often the older ones are removed.
const KEPT_MS = 7 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

/**
 * The event publication registry (SPEC 1.18): the `@OnCommitted` listeners of the service run
 * after commit, at least once, in commit order per listener and subject, each completion
 * recorded in `event_publications`.
 * - In the write's transaction, `record` adds a row per listener that hears the event: both
 *   commit or neither.
 * - After commit, each instance runs rounds: every listener-and-subject's oldest incomplete row,
 *   when due, is run and then marked complete; a failure is logged, counted and retried with
 *   growing waits, and holds back that listener's later events of the same subject. Rows a
 *   crash left incomplete are simply the next round's, on this instance or another.
 * On PostgreSQL one instance runs rounds at a time: each round holds a transaction-level
 * advisory lock, which a dead instance loses with its connection, so another takes over at
 * once. SQLite has one process and no lock. Each completion commits on its own, as soon as its
 * listener has run: a crash re-runs at most the listener it cut short.
 */
@Injectable()
export class EventPublications implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventListeners');
  private readonly pace = new RoundPace();
  private readonly stopping = new AbortController();
  private readonly failures: Counter<'listener'>;
  private running?: Promise<void>;
  private prunedAt = 0;

  constructor(
    private readonly listeners: CommittedListeners,
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    metrics: MetricsService,
  ) {
    this.failures = this.watch(metrics);
  }

  onApplicationBootstrap(): void {
    if (this.listeners.ids.length > 0) this.running = this.work();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    this.pace.wake();
    await this.running;
  }

  /**
   * Records, in the write's transaction, a publication of `event` for each listener of
   * `entity`'s writes that hears its action; the rounds come back to their quick pace.
   */
  record(event: Event, entity: EntityClass, write: WriteContext): void {
    const listeners = this.listeners.of(entity, event.action);
    for (const { id } of listeners) {
      write.record(EventPublication, {
        eventId: event.id,
        listener: id,
        action: event.action,
        subjectType: event.subject.type,
        subjectId: event.subject.id,
        recordedAt: event.createdAt,
      });
    }
    if (listeners.length > 0) this.pace.quicken();
  }

  private async work(): Promise<void> {
    let failing = false;
    while (!this.stopping.signal.aborted) {
      let wait: number;
      try {
        const ran = await this.round();
        wait = ran === BATCH_SIZE ? 0 : this.pace.next(ran > 0);
        if (failing) this.logger.log('running event listeners again');
        failing = false;
      } catch (error) {
        // Logged once per outage, not once per round.
        if (!failing) this.logger.warn(`event listeners not run yet: ${(error as Error).message}`);
        failing = true;
        wait = RETRY_MS;
      }
      if (!this.stopping.signal.aborted) await this.pace.pause(wait);
    }
  }

  /** One round, under the registry's lease on PostgreSQL; how many publications it ran. */
  private async round(): Promise<number> {
    if (this.dataSource.options.type !== 'postgres') return this.runDue();
    return this.dataSource.transaction(async (manager) =>
      (await holdsTableLease(manager, EventPublication)) ? this.runDue() : 0,
    );
  }

  private async runDue(): Promise<number> {
    await this.pruneNowAndThen();
    const due = await this.duePublications(new Date());
    for (const publication of due) {
      if (this.stopping.signal.aborted) break;
      await this.runOne(publication);
    }
    return due.length;
  }

  /**
   * The oldest incomplete publication of each listener and subject, if it is due; only of the
   * listeners this build has (during a rolling deploy, a newer one's are left to it).
   */
  private duePublications(now: Date): Promise<EventPublication[]> {
    const earlier = this.dataSource
      .createQueryBuilder()
      .subQuery()
      .select('1')
      .from(EventPublication, 'earlier')
      .where('earlier.completedAt IS NULL')
      .andWhere('earlier.listener = publication.listener')
      .andWhere('earlier.subjectType = publication.subjectType')
      .andWhere('earlier.subjectId = publication.subjectId')
      .andWhere('earlier.position < publication.position')
      .getQuery();
    return this.dataSource
      .getRepository(EventPublication)
      .createQueryBuilder('publication')
      .where('publication.completedAt IS NULL')
      .andWhere('publication.listener IN (:...listeners)', { listeners: this.listeners.ids })
      .andWhere('(publication.nextAttemptAt IS NULL OR publication.nextAttemptAt <= :now)', {
        now,
      })
      .andWhere(`NOT EXISTS ${earlier}`)
      .orderBy('publication.position', 'ASC')
      .limit(BATCH_SIZE)
      .getMany();
  }

  private async runOne(publication: EventPublication): Promise<void> {
    const { listener: id, eventId, action, subjectType, subjectId } = publication;
    const attempts = publication.attempts + 1;
    const event = { id: eventId, action, subject: { type: subjectType, id: subjectId } };
    try {
      await withinTimeLimit(() => this.listeners.named(id)!.run(event as CommittedEvent));
    } catch (error) {
      return this.failed(publication, attempts, error);
    }
    await this.update(publication, { attempts, completedAt: new Date(), nextAttemptAt: null });
  }

  private async failed(
    publication: EventPublication,
    attempts: number,
    error: unknown,
  ): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    const nextAttemptAt = new Date(
      Date.now() + Math.min(1_000 * 2 ** (attempts - 1), BACKOFF_MAX_MS),
    );
    this.failures.inc({ listener: publication.listener });
    this.logger.warn({
      event: 'event_listener_failed',
      listener: publication.listener,
      event_id: publication.eventId,
      attempt: attempts,
      next_attempt_at: nextAttemptAt.toISOString(),
      reason,
    });
    await this.update(publication, { attempts, nextAttemptAt, lastError: reason.slice(0, 2_000) });
  }

  // Through the kit's runner: on SQLite it takes its turn with the writes of requests.
  private update(
    publication: EventPublication,
    changes: Partial<EventPublication>,
  ): Promise<unknown> {
    return this.transactions.run((manager) =>
      manager.update(EventPublication, { position: publication.position }, changes),
    );
  }

  private async pruneNowAndThen(): Promise<void> {
    if (Date.now() - this.prunedAt < PRUNE_EVERY_MS) return;
    const before = new Date(Date.now() - KEPT_MS);
    await this.transactions.run((manager) =>
      manager.delete(EventPublication, { completedAt: LessThan(before) }),
    );
    this.prunedAt = Date.now();
  }

  // The registry is read at scrape time: the same figures on every instance.
  private watch(metrics: MetricsService): Counter<'listener'> {
    const registers = [metrics.registry];
    const failures = new Counter({
      name: 'event_listener_failures_total',
      help: 'Runs of an event listener on this instance that threw or ran out of time',
      labelNames: ['listener'],
      registers,
    });
    const publications = () => this.dataSource.getRepository(EventPublication);
    new Gauge({
      name: 'event_publications_incomplete',
      help: 'Event publications whose listener has not completed yet (waiting, failed, or cut by a crash)',
      labelNames: ['listener'],
      registers,
      async collect() {
        const counts = await publications()
          .createQueryBuilder('publication')
          .select('publication.listener', 'listener')
          .addSelect('COUNT(*)', 'count')
          .where('publication.completedAt IS NULL')
          .groupBy('publication.listener')
          .getRawMany<{ listener: string; count: string | number }>()
          .catch(() => []);
        this.reset();
        for (const { listener, count } of counts) this.set({ listener }, Number(count));
      },
    });
    new Gauge({
      name: 'event_publications_oldest_incomplete_seconds',
      help: 'Age of the oldest event publication whose listener has not completed (0 when none)',
      registers,
      async collect() {
        // While the database is away the figure is NaN (unknown); the scrape still answers.
        const oldest = await publications()
          .findOne({ where: { completedAt: IsNull() }, order: { position: 'ASC' } })
          .catch(() => ({ recordedAt: new Date(NaN) }));
        this.set(oldest ? Math.max(0, (Date.now() - oldest.recordedAt.getTime()) / 1_000) : 0);
      },
    });
    return failures;
  }
}

/** Runs `work`, failing it if it has not finished within the time limit. */
async function withinTimeLimit(work: () => Promise<void> | void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`did not finish within ${TIME_LIMIT_MS / 1_000} s`)),
      TIME_LIMIT_MS,
    );
  });
  try {
    await Promise.race([Promise.resolve().then(work), limit]);
  } finally {
    clearTimeout(timer);
  }
}
