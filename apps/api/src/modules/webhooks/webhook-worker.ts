import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import {
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Link,
  type Span,
} from '@opentelemetry/api';
import { Gauge } from 'prom-client';
import { DataSource, IsNull, LessThan, Or } from 'typeorm';
import { APP_CONFIG, type AppConfig, type WebhookConfig } from '../../config/app-config';
import { MetricsService } from '../../metrics/metrics.service';
import { ReceiverPolicy } from './receiver-address';
import { RoundPace } from '../../database/round-pace';
import { WebhookHandOut } from './webhook-hand-out';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookOutcomes } from './webhook-outcomes';
import { attemptDelivery, failureOf, succeeded, type AttemptOutcome } from './webhook-sender';

// After a failed round (the database away), the wait before the next.
const RETRY_MS = 1_000;

/** An endpoint's oldest pending delivery, due now, with what its attempt needs. */
interface DueDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  attempt: number;
  payload: string;
  traceParent: string | null;
  url: string;
  secret: string;
}

/**
 * Delivers the events to the webhook endpoints (SPEC 1.17), in two steps that each instance
 * runs in a loop:
 * - hand-out (WebhookHandOut): the outbox's oldest events become deliveries;
 * - attempts: each active endpoint's oldest pending delivery, when due, is leased by one
 *   instance (a conditional UPDATE: no other takes it until the lease ends, which outlasts the
 *   attempt's own time limit), POSTed, and its outcome written. The next one of that endpoint
 *   waits for it (commit order per endpoint); endpoints never wait for one another, and no
 *   transaction stays open across an attempt (so it works through PgBouncer).
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookWorker.name);
  private readonly settings: WebhookConfig;
  private readonly stopping = new AbortController();
  /** This instance's attempts in flight, by endpoint. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly tracer = trace.getTracer('webhooks');
  private running?: Promise<void>;
  private readonly pace = new RoundPace();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly handOut: WebhookHandOut,
    private readonly outcomes: WebhookOutcomes,
    private readonly receivers: ReceiverPolicy,
    metrics: MetricsService,
  ) {
    this.settings = config.webhooks;
    this.watch(metrics);
  }

  onApplicationBootstrap(): void {
    this.running = this.work();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    this.pace.wake();
    await this.running;
    // The attempts in flight are cut short (the signal) and handed back.
    await Promise.all(this.inFlight.values());
  }

  private async work(): Promise<void> {
    let failing = false;
    while (!this.stopping.signal.aborted) {
      let wait: number;
      try {
        const handedOut = await this.handOut.round();
        const started = await this.startDue();
        const busy = handedOut > 0 || started > 0 || this.inFlight.size > 0;
        wait = handedOut === this.handOut.batch ? 0 : this.pace.next(busy);
        if (failing) this.logger.log('delivering webhooks again');
        failing = false;
      } catch (error) {
        // Logged once per outage, not once per round.
        if (!failing) this.logger.warn(`webhooks not delivered yet: ${(error as Error).message}`);
        failing = true;
        wait = RETRY_MS;
      }
      if (!this.stopping.signal.aborted) await this.pace.pause(wait);
    }
  }

  /**
   * Told by a write of this instance, inside its transaction, that it recorded an event: the
   * worker comes back to its quick pace, so the event is handed out soon after the commit.
   */
  eventRecorded(): void {
    this.pace.quicken();
  }

  /**
   * Starts the attempts that are due, as many as there is room for, one per endpoint; how many
   * it started.
   */
  private async startDue(): Promise<number> {
    const room = this.settings.concurrency - this.inFlight.size;
    if (room <= 0) return 0;
    const now = new Date();
    let started = 0;
    for (const due of await this.dueDeliveries(now, room)) {
      if (this.inFlight.has(due.endpointId) || !(await this.lease(due, now))) continue;
      const attempt = this.attempt(due)
        .catch((error: Error) =>
          // The lease runs out and the delivery is attempted again: at least once.
          this.logger.warn(`webhook delivery ${due.id} not recorded: ${error.message}`),
        )
        .finally(() => {
          this.inFlight.delete(due.endpointId);
          // Its endpoint's next delivery may be due now.
          this.pace.wake();
        });
      this.inFlight.set(due.endpointId, attempt);
      started += 1;
    }
    return started;
  }

  // Each active endpoint's oldest pending delivery, if it is due and no one holds it.
  private dueDeliveries(now: Date, limit: number): Promise<DueDelivery[]> {
    const oldest = this.dataSource
      .createQueryBuilder()
      .subQuery()
      .select('MIN(earlier.position)')
      .from(WebhookDelivery, 'earlier')
      .where('earlier.webhookEndpointId = endpoint.id')
      .andWhere('earlier.status = :pending')
      .getQuery();
    return this.dataSource
      .createQueryBuilder()
      .from(WebhookEndpoint, 'endpoint')
      .innerJoin(
        WebhookDelivery,
        'delivery',
        `delivery.webhookEndpointId = endpoint.id AND delivery.status = :pending AND delivery.position = ${oldest}`,
      )
      .select('delivery.id', 'id')
      .addSelect('endpoint.id', 'endpointId')
      .addSelect('delivery.eventId', 'eventId')
      .addSelect('delivery.attempt', 'attempt')
      .addSelect('delivery.payload', 'payload')
      .addSelect('delivery.traceParent', 'traceParent')
      .addSelect('endpoint.url', 'url')
      .addSelect('endpoint.secret', 'secret')
      .where('endpoint.status = :active')
      .andWhere('delivery.nextAttemptAt <= :now')
      .andWhere('(delivery.leasedUntil IS NULL OR delivery.leasedUntil < :now)')
      .setParameters({ pending: 'pending', active: 'active', now })
      .orderBy('delivery.position', 'ASC')
      .limit(limit)
      .getRawMany<DueDelivery>();
  }

  // Taken by this instance if no other took it first; held longer than an attempt can last.
  private async lease(due: DueDelivery, now: Date): Promise<boolean> {
    const until = new Date(now.getTime() + 2 * this.settings.attemptTimeoutMs + 5_000);
    const { affected } = await this.dataSource
      .getRepository(WebhookDelivery)
      .update(
        { id: due.id, status: 'pending', leasedUntil: Or(IsNull(), LessThan(now)) },
        { leasedUntil: until },
      );
    return affected === 1;
  }

  private attempt(due: DueDelivery): Promise<void> {
    const attempt = Number(due.attempt) + 1;
    const options = {
      links: linkTo(due.traceParent),
      attributes: {
        'webhook.endpoint_id': due.endpointId,
        'webhook.event_id': due.eventId,
        'webhook.attempt': attempt,
      },
    };
    return this.tracer.startActiveSpan('webhook delivery', options, async (span) => {
      try {
        const outcome = await attemptDelivery(
          { url: due.url, secret: due.secret, messageId: due.eventId, payload: due.payload },
          this.receivers,
          this.settings.attemptTimeoutMs,
          this.stopping.signal,
        );
        describe(span, outcome);
        await this.outcomes.record(due.id, due.endpointId, attempt, outcome);
      } finally {
        span.end();
      }
    });
  }

  private watch(metrics: MetricsService): void {
    const registers = [metrics.registry];
    const deliveries = () => this.dataSource.getRepository(WebhookDelivery);
    new Gauge({
      name: 'webhook_oldest_pending_seconds',
      help: 'Age of the oldest webhook delivery not yet succeeded or failed (0 when none waits)',
      registers,
      async collect() {
        // While the database is away the figure is NaN (unknown); the scrape still answers.
        const [oldest] = await deliveries()
          .find({ where: { status: 'pending' }, order: { position: 'ASC' }, take: 1 })
          .catch(() => [{ createdAt: new Date(NaN) }]);
        this.set(oldest ? Math.max(0, (Date.now() - oldest.createdAt.getTime()) / 1000) : 0);
      },
    });
  }
}

// The span of the write that recorded the event, when it was traced.
function linkTo(traceParent: string | null): Link[] {
  if (!traceParent) return [];
  const context = trace.getSpanContext(
    propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }),
  );
  return context ? [{ context }] : [];
}

function describe(span: Span, outcome: AttemptOutcome): void {
  span.setAttribute('webhook.duration_ms', outcome.durationMs);
  if (outcome.status !== undefined) span.setAttribute('http.response.status_code', outcome.status);
  if (!succeeded(outcome))
    span.setStatus({ code: SpanStatusCode.ERROR, message: failureOf(outcome) });
}
