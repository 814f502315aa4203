import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { ResourceEntity } from '../decorators/resource-entity';
import type { EntityClass, ResourceDefinition } from '../metadata/definition';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { Conditions } from '../persistence/selection';
import { TransactionRunner } from '../persistence/transaction.runner';
import type { WriteBatch } from '../persistence/write.batch';
import { serializeResource } from '../serialization/resource.serializer';
import { revisionOf } from './history.writer';
import type { RecordCondition, RequestContext, WriteContext } from './request-context';
import { ResourceRegistry } from './resource-registry';
import { WRITE_LISTENER, type WriteAction, type WriteListener } from './write-listener';
import { WritePhase, WriteReactions } from './write-reactions';

/**
 * What every write of every resource does besides its own work: its transaction and batch,
 * other modules' reactions, its revision (history), the service-wide write listener, and the
 * answer kept for an Idempotency-Key, all in the write's transaction.
 */
@Injectable()
export class WriteUnits {
  private listener?: WriteListener | null;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly registry: ResourceRegistry,
    private readonly idempotency: IdempotencyStore,
    private readonly moduleRef: ModuleRef,
    private readonly reactions: WriteReactions,
  ) {}

  /**
   * Runs `work` in a transaction. A created row, the write's revision and the listener's rows
   * go in one batch, sent after the work.
   */
  run<R>(
    context: RequestContext,
    work: (write: WriteContext, batch: WriteBatch) => Promise<R>,
  ): Promise<R> {
    return this.transactions.run(async (manager) => {
      const batch = this.transactions.batch();
      const record = (entity: EntityClass, row: object, onlyIf?: RecordCondition) =>
        batch.add(
          this.registry
            .tableOf(entity)
            .writes.insertion(row, onlyIf && this.matching(onlyIf).idsSubquery()),
        );
      const result = await work({ ...context, manager, record }, batch);
      await batch.flush(manager);
      return result;
    });
  }

  /** Other modules' `@OnWrite` reactions to this write in `phase`. */
  react(
    definition: ResourceDefinition,
    phase: WritePhase,
    entity: ResourceEntity,
    write: WriteContext,
  ): Promise<void> {
    return this.reactions.run(definition.entity, phase, entity, write);
  }

  reactsTo(definition: ResourceDefinition, phase: WritePhase): boolean {
    return this.reactions.has(definition.entity, phase);
  }

  /**
   * After the resource's own `afterWrite`: other modules' reactions, its history, then the
   * service-wide listener.
   */
  async written(
    definition: ResourceDefinition,
    entity: ResourceEntity,
    action: WriteAction,
    write: WriteContext,
    batch: WriteBatch,
  ): Promise<void> {
    await this.react(definition, action, entity, write);
    const { history } = definition;
    if (history && action !== 'deleted') {
      const revisions = this.registry.serviceOf(history.target());
      batch.add(revisionOf(revisions, history.owner, entity));
    }
    const listener = this.writeListener();
    if (!listener) return;
    const tenant = definition.tenant
      ? ((entity as { tenantId?: string | null }).tenantId ?? undefined)
      : undefined;
    await listener.onWrite({
      action,
      definition,
      entity,
      context: this.inTenant(write, tenant),
      tenant,
    });
  }

  private matching({ exists, where }: RecordCondition): Conditions {
    return recordedOnlyIf(new Conditions(this.registry.tableOf(exists)), where);
  }

  // What a tenant-scoped write records into a tenant-scoped table (an event) is of its tenant.
  private inTenant(write: WriteContext, tenant: string | undefined): WriteContext {
    return recordingInTenant(write, tenant, (entity) => this.registry.isTenantScoped(entity));
  }

  /** With an Idempotency-Key, the create's answer is stored in its own transaction. */
  async remember(
    definition: ResourceDefinition,
    entity: ResourceEntity,
    write: WriteContext,
  ): Promise<void> {
    if (!write.idempotency) return;
    // Without the on-create outputs: a secret (a token) is never stored (SPEC 1.12).
    const body = { data: serializeResource(definition, entity, { created: false }) };
    const expiresWith = expiresWithOf(definition);
    await this.idempotency.complete(
      write.manager,
      write.idempotency,
      { status: 201, body },
      {
        resourceId: entity.id,
        expiresAt: expiresWith
          ? (entity as unknown as Record<string, Date>)[expiresWith]
          : undefined,
      },
    );
  }

  /** A deleted resource whose stored answers live only as long as it does: they go too. */
  async forget(definition: ResourceDefinition, write: WriteContext, id: string): Promise<void> {
    if (expiresWithOf(definition)) await this.idempotency.forget(write.manager, id);
  }

  private writeListener(): WriteListener | undefined {
    if (this.listener === undefined) {
      try {
        this.listener = this.moduleRef.get<WriteListener>(WRITE_LISTENER, { strict: false });
      } catch {
        this.listener = null; // the service has none
      }
    }
    return this.listener ?? undefined;
  }
}

/**
 * The rows a conditional record needs (`write.record(..., { exists, where })`): each member
 * equal to its value; `[null, value]` equal to it or empty, `[null]` empty.
 */
export function recordedOnlyIf(rows: Conditions, where: RecordCondition['where']): Conditions {
  for (const [property, wanted] of Object.entries(where)) {
    if (!Array.isArray(wanted)) rows.equals(property, wanted);
    else if (wanted.length === 1 && wanted[0] === null) rows.empty(property);
    else if (wanted.length === 2 && wanted[0] === null) rows.equalsOrEmpty(property, wanted[1]);
    else throw new Error(`record: ${property} takes a value, [null, value] or [null]`);
  }
  return rows;
}

/** `write` whose records into tenant-scoped tables are of `tenant`, when the write has one. */
export function recordingInTenant(
  write: WriteContext,
  tenant: string | undefined,
  isTenantScoped: (entity: EntityClass) => boolean,
): WriteContext {
  if (tenant === undefined) return write;
  const record = (entity: EntityClass, row: object, onlyIf?: RecordCondition) =>
    write.record(
      entity,
      isTenantScoped(entity) ? Object.assign(row, { tenantId: tenant }) : row,
      onlyIf,
    );
  return { ...write, record };
}

function expiresWithOf(definition: ResourceDefinition): string | undefined {
  return definition.idempotency ? definition.idempotency.expiresWith : undefined;
}
