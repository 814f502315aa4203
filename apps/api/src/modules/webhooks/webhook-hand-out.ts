import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { newRow, TransactionRunner } from '@app/resource-kit';
import { holdsTableLease } from '../../database/table-lease';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookOutboxEntry } from './webhook-outbox-entry.entity';

/** Events handed out per round; a full round is followed by the next at once. */
export const HAND_OUT_BATCH = 100;
// Rows per INSERT of deliveries: under every engine's limit of bound parameters.
const INSERT_CHUNK = 500;

/**
 * The worker's first step: the oldest events of the webhook outbox (written in each write's
 * transaction) become one delivery per matching active endpoint, and leave the outbox, in one
 * short transaction (on PostgreSQL under a transaction-level advisory lock: one instance at a
 * time).
 */
@Injectable()
export class WebhookHandOut {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * One round; the number of events it took from the outbox. Through the kit's transaction
   * runner, which queues it behind the writes on SQLite's one connection.
   */
  round(): Promise<number> {
    return this.transactions.run(async (manager) => {
      if (!(await this.leased(manager))) return 0;
      const entries = await manager.find(WebhookOutboxEntry, {
        order: { position: 'ASC' },
        take: HAND_OUT_BATCH,
      });
      if (entries.length === 0) return 0;
      const endpoints = await manager.find(WebhookEndpoint, {
        select: { id: true, subjectType: true, action: true, tenantId: true },
        where: { status: 'active' },
      });
      const deliveries = entries.flatMap((entry) =>
        endpoints
          .filter((endpoint) => matches(endpoint, entry))
          .map((endpoint) => deliveryOf(entry, endpoint)),
      );
      for (let start = 0; start < deliveries.length; start += INSERT_CHUNK) {
        await manager.insert(WebhookDelivery, deliveries.slice(start, start + INSERT_CHUNK));
      }
      const positions = entries.map((entry) => entry.position);
      await manager.delete(WebhookOutboxEntry, { position: In(positions) });
      return entries.length;
    });
  }

  // PostgreSQL: one instance hands out at a time; the others skip the round. SQLite has one
  // process.
  private leased(manager: EntityManager): Promise<boolean> {
    if (this.dataSource.options.type !== 'postgres') return Promise.resolve(true);
    return holdsTableLease(manager, WebhookOutboxEntry);
  }
}

// An endpoint receives what its creator may read: the events of no tenant and of its own.
function matches(endpoint: WebhookEndpoint, entry: WebhookOutboxEntry): boolean {
  return (
    (entry.tenantId === null || entry.tenantId === endpoint.tenantId) &&
    (endpoint.subjectType === null || endpoint.subjectType === entry.subjectType) &&
    (endpoint.action === null || endpoint.action === entry.action)
  );
}

function deliveryOf(entry: WebhookOutboxEntry, endpoint: WebhookEndpoint) {
  return {
    ...newRow(),
    webhookEndpointId: endpoint.id,
    tenantId: endpoint.tenantId,
    eventId: entry.eventId,
    attempt: 0,
    status: 'pending' as const,
    responseStatus: null,
    durationMs: null,
    nextAttemptAt: entry.recordedAt,
    position: entry.position,
    payload: entry.body,
    leasedUntil: null,
    traceParent: entry.traceParent,
  };
}
