import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Counter, Gauge } from 'prom-client';
import { DataSource, EntityManager, In } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import { holdsTableLease } from '../../../database/table-lease';
import { MetricsService } from '../../../metrics/metrics.service';
import { EventStream, PublishError } from './event-stream';
import { OutboxEntry } from './outbox-entry.entity';

// Rows published per round; a full round is followed by the next at once.
const BATCH_SIZE = 100;
// How often an idle relay looks for new rows: the most a published event waits after commit.
const POLL_MS = 100;
// After a failed round (broker or database away), the wait before the next.
const RETRY_MS = 1_000;

interface Round {
  readonly count: number;
  readonly failure?: PublishError;
}

/**
 * Publishes the outbox to JetStream after commit (SPEC 1.14): in the order of recording, at
 * least once (a row is removed only after the stream acknowledged it; a retry carries the same
 * message id, which the stream de-duplicates). Writes never wait for it: they only add rows.
 *
 * With several instances on PostgreSQL, one relays at a time: each round runs in a transaction
 * that first takes a transaction-level advisory lock on the outbox; the others skip the round.
 * A relay that dies loses the lock with its connection, and another takes over on its next poll.
 * SQLite has one process and no lock; its round holds no transaction while it publishes,
 * which would stop every write of the process.
 */
@Injectable()
export class EventRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventRelay.name);
  private published?: Counter;
  private stream?: EventStream;
  private running?: Promise<void>;
  private readonly stopping = new AbortController();
  private failing = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    metrics: MetricsService,
  ) {
    if (config.eventPublishing.url) this.watch(metrics);
  }

  onApplicationBootstrap(): void {
    const { url, ...stream } = this.config.eventPublishing;
    if (!url) return;
    this.stream = new EventStream({ url, ...stream });
    this.running = this.relay(this.stream);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await this.running;
    await this.stream?.close();
  }

  private async relay(stream: EventStream): Promise<void> {
    while (!this.stopping.signal.aborted) {
      let wait = POLL_MS;
      try {
        const count = stream.reachable ? await this.round(stream) : 0;
        if (count === BATCH_SIZE) wait = 0;
        if (this.failing) this.logger.log('publishing events again');
        this.failing = false;
      } catch (error) {
        // Logged once per outage, not once per round.
        if (!this.failing)
          this.logger.warn(`events not published yet: ${(error as Error).message}`);
        this.failing = true;
        wait = RETRY_MS;
      }
      await sleep(wait, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
  }

  /** One round: the oldest rows, published in order, removed once acknowledged. */
  private async round(stream: EventStream): Promise<number> {
    const { count, failure } =
      this.dataSource.options.type === 'postgres'
        ? await this.dataSource.transaction((manager) => this.leased(manager, stream))
        : await this.publish(this.dataSource.manager, stream);
    // Thrown after the commit: the rows the stream did acknowledge stay removed.
    if (failure) throw failure;
    return count;
  }

  private async leased(manager: EntityManager, stream: EventStream): Promise<Round> {
    const leased = await holdsTableLease(manager, OutboxEntry);
    return leased ? this.publish(manager, stream) : { count: 0 };
  }

  private async publish(manager: EntityManager, stream: EventStream): Promise<Round> {
    const entries = await manager.find(OutboxEntry, {
      order: { position: 'ASC' },
      take: BATCH_SIZE,
    });
    if (entries.length === 0) return { count: 0 };
    let acknowledged = entries.length;
    let failure: PublishError | undefined;
    try {
      await stream.publish(
        entries.map(({ eventId, subject, body }) => ({ id: eventId, subject, body })),
      );
    } catch (error) {
      if (!(error instanceof PublishError)) throw error;
      ({ acknowledged } = error);
      failure = error;
    }
    const done = entries.slice(0, acknowledged).map((entry) => entry.position);
    if (done.length > 0) await manager.delete(OutboxEntry, { position: In(done) });
    this.published!.inc(done.length);
    return { count: entries.length, failure };
  }

  // The outbox is read at scrape time: the same figures on every instance.
  private watch(metrics: MetricsService): void {
    const registers = [metrics.registry];
    this.published = new Counter({
      name: 'events_published_total',
      help: 'Events this instance published to JetStream',
      registers,
    });
    const outbox = () => this.dataSource.getRepository(OutboxEntry);
    new Gauge({
      name: 'events_outbox_pending',
      help: 'Events recorded and not yet published',
      registers,
      async collect() {
        // While the database is away the figure is NaN (unknown); the scrape still answers.
        this.set(
          await outbox()
            .count()
            .catch(() => NaN),
        );
      },
    });
    new Gauge({
      name: 'events_outbox_lag_seconds',
      help: 'Age of the oldest event not yet published (0 when none waits)',
      registers,
      async collect() {
        const [oldest] = await outbox()
          .find({ order: { position: 'ASC' }, take: 1 })
          .catch(() => [{ recordedAt: new Date(NaN) }]);
        this.set(oldest ? Math.max(0, (Date.now() - oldest.recordedAt.getTime()) / 1000) : 0);
      },
    });
  }
}
