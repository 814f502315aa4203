import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, type EntityTarget, type ObjectLiteral } from 'typeorm';
import { newRow, TransactionRunner } from '@app/resource-kit';
import { holdsTableLease } from '../../database/table-lease';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookOutboxEntry } from './webhook-outbox-entry.entity';

/**
 * Events handed out per round; a full round is followed by the next at once. PostgreSQL's
 * rounds move the rows without reading them, so they take ten times as many: fewer rounds
 * under a stream of writes (each a transaction of four round trips).
 */
const BATCH = { postgres: 1_000, other: 100 };
// Rows per INSERT of deliveries: under every engine's limit of bound parameters.
const INSERT_CHUNK = 500;

/**
 * The worker's first step: the oldest events of the webhook outbox (written in each write's
 * transaction) become one delivery per matching active endpoint, and leave the outbox, in one
 * short transaction. On PostgreSQL that is one statement under a transaction-level advisory
 * lock (one instance at a time): the rows never pass through the service, so an active
 * endpoint costs a write almost nothing. SQLite reads them and writes them back.
 */
@Injectable()
export class WebhookHandOut {
  /** The most events one round takes. */
  readonly batch: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {
    this.batch = dataSource.options.type === 'postgres' ? BATCH.postgres : BATCH.other;
  }

  /**
   * One round; the number of events it took from the outbox. Through the kit's transaction
   * runner, which queues it behind the writes on SQLite's one connection.
   */
  round(): Promise<number> {
    return this.transactions.run(async (manager) => {
      if (this.dataSource.options.type !== 'postgres') return this.handOutRows(manager);
      if (!(await holdsTableLease(manager, WebhookOutboxEntry))) return 0;
      return this.handOutInSql(manager);
    });
  }

  private async handOutInSql(manager: EntityManager): Promise<number> {
    const table = (entity: EntityTarget<ObjectLiteral>) =>
      manager.connection.getMetadata(entity).tablePath;
    const now = new Date();
    const [{ taken }] = await manager.query<{ taken: number }[]>(
      handOutStatement(table(WebhookOutboxEntry), table(WebhookEndpoint), table(WebhookDelivery)),
      [this.batch, now, now.getTime()],
    );
    return taken;
  }

  private async handOutRows(manager: EntityManager): Promise<number> {
    const entries = await manager.find(WebhookOutboxEntry, {
      order: { position: 'ASC' },
      take: this.batch,
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
  }
}

/**
 * PostgreSQL's hand-out ($1 events at most, $2 the time, $3 it in ms): the oldest events leave
 * the outbox and become a delivery per matching endpoint (matched as `matches` does), the
 * number of events taken its answer. A delivery's id is a UUIDv7 of the round's millisecond
 * whose next 26 bits count the round's deliveries (up to 2^26) in the order of the events, so
 * the ids of a round sort as the kit's (the uuid package's monotonic v7) do; PostgreSQL 15 has
 * no uuidv7().
 */
function handOutStatement(outbox: string, endpoints: string, deliveries: string): string {
  const millisecond = `lpad(to_hex($3::bigint), 12, '0')`;
  return `
    WITH taken AS (
      DELETE FROM ${outbox}
      WHERE "position" IN (SELECT "position" FROM ${outbox} ORDER BY "position" LIMIT $1)
      RETURNING *
    ), matched AS (
      SELECT taken.*, endpoint.id AS endpoint_id, endpoint.tenant_id AS endpoint_tenant_id,
             row_number() OVER (ORDER BY taken."position", endpoint.id) AS n
      FROM taken JOIN ${endpoints} AS endpoint
        ON endpoint.status = 'active'
       AND (taken.tenant_id IS NULL OR taken.tenant_id = endpoint.tenant_id)
       AND (endpoint.subject_type IS NULL OR endpoint.subject_type = taken.subject_type)
       AND (endpoint.action IS NULL OR endpoint.action = taken.action)
    ), delivered AS (
      INSERT INTO ${deliveries} (id, created_at, updated_at, webhook_endpoint_id, tenant_id,
        event_id, attempt, status, next_attempt_at, "position", payload, trace_parent)
      SELECT substr(${millisecond}, 1, 8) || '-' || substr(${millisecond}, 9, 4)
               || '-7' || lpad(to_hex(n >> 14), 3, '0') || '-' || to_hex(32768 | (n & 16383))
               || '-' || substr(md5(random()::text), 1, 12),
             $2::timestamp, $2::timestamp, endpoint_id, endpoint_tenant_id, event_id, 0,
             'pending', recorded_at, "position", body, trace_parent
      FROM matched
    )
    SELECT count(*)::int AS taken FROM taken`;
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
