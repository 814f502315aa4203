import { Inject, Injectable, Logger } from '@nestjs/common';
import { Counter } from 'prom-client';
import { DataSource, IsNull, LessThanOrEqual, Not } from 'typeorm';
import { APP_CONFIG, type AppConfig, type WebhookConfig } from '../../config/app-config';
import { MetricsService } from '../../metrics/metrics.service';
import { WebhookDelivery, type DeliveryStatus } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { failureOf, succeeded, type AttemptOutcome } from './webhook-sender';

/**
 * What an attempt leaves: its delivery done, due again after the next wait, or failed for
 * good; its endpoint failing since when, and disabled after `disableAfterMs` of failures.
 */
@Injectable()
export class WebhookOutcomes {
  private readonly logger = new Logger('WebhookWorker');
  private readonly settings: WebhookConfig;
  private readonly attempts: Counter;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly dataSource: DataSource,
    metrics: MetricsService,
  ) {
    this.settings = config.webhooks;
    this.attempts = new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome: succeeded; retried (failed, due again later); failed (no retry left)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
  }

  async record(deliveryId: string, endpointId: string, attempt: number, outcome: AttemptOutcome) {
    const deliveries = this.dataSource.getRepository(WebhookDelivery);
    // Stopping: handed back at once to the next instance, as if never attempted.
    if (outcome.interrupted) {
      await deliveries.update(deliveryId, { leasedUntil: null });
      return;
    }
    const now = new Date();
    const taken = succeeded(outcome);
    const wait: number | undefined = this.settings.retryDelaysMs[attempt - 1];
    const nextAttemptAt = taken || wait === undefined ? null : new Date(now.getTime() + wait);
    const status: DeliveryStatus = taken ? 'succeeded' : nextAttemptAt ? 'pending' : 'failed';
    await deliveries.update(
      { id: deliveryId },
      {
        attempt,
        status,
        responseStatus: outcome.status ?? null,
        durationMs: outcome.durationMs,
        nextAttemptAt,
        leasedUntil: null,
        updatedAt: now,
      },
    );
    this.attempts.inc({ outcome: status === 'pending' ? 'retried' : status });
    if (!taken) {
      this.logger.debug(
        `webhook delivery ${deliveryId}, attempt ${attempt}: ${failureOf(outcome)}`,
      );
    }
    await this.followEndpoint(endpointId, taken, now);
  }

  // An endpoint whose deliveries have all failed for `disableAfterMs` is disabled.
  private async followEndpoint(id: string, taken: boolean, now: Date): Promise<void> {
    const endpoints = this.dataSource.getRepository(WebhookEndpoint);
    if (taken) {
      await endpoints.update({ id, failingSince: Not(IsNull()) }, { failingSince: null });
      return;
    }
    await endpoints.update({ id, failingSince: IsNull() }, { failingSince: now });
    const since = new Date(now.getTime() - this.settings.disableAfterMs);
    const { affected } = await endpoints.update(
      { id, status: 'active', failingSince: LessThanOrEqual(since) },
      { status: 'disabled', updatedAt: now },
    );
    if (affected) {
      this.logger.warn(
        `webhook endpoint ${id} disabled: its deliveries failed since ${since.toISOString()}`,
      );
    }
  }
}
