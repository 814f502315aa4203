import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { notFound } from '../errors/kit.error';
import type { Operation, ResourceDefinition } from '../metadata/definition';
import { ADMIN_ROLE } from '../auth/caller';
import { ALIAS, applyFilters, Page, readPage } from '../persistence/page.query';
import type { CursorCodec } from '../query/cursor.codec';
import type { ResourceQuery } from '../query/query-parameters.parser';
import type { FilterCondition } from '../query/filter.parser';
import type { ResourceInput } from '../validation/input.parser';
import { isStorableId, newRow, type ResourceEntity } from '../decorators/resource-entity';
import { RequestContext, WriteContext } from './request-context';
import { ResourceRegistry } from './resource-registry';
import { writeRevision } from './history.writer';
import { assertTransition } from './transitions';
import { WRITE_LISTENER, WriteAction, WriteListener } from './write-listener';
import { TransactionRunner } from '../persistence/transaction.runner';
import { assertIfMatch } from '../conditional/precondition';
import { envelope } from '../http/envelope.interceptor';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { ResourceResponse } from '../serialization/resource-response';

export const RESOURCE_DEFINITION = Symbol('RESOURCE_DEFINITION');
export const CURSOR_CODEC = Symbol('CURSOR_CODEC');

/**
 * The behaviour of one resource. Feature teams extend it and override the named hooks;
 * the operations themselves (and their transactions) stay here.
 */
@Injectable()
export class ResourceService<T extends ResourceEntity = ResourceEntity> implements OnModuleInit {
  @Inject(RESOURCE_DEFINITION) readonly definition!: ResourceDefinition;
  @Inject(DataSource) protected readonly dataSource!: DataSource;
  @Inject(ResourceRegistry) protected readonly registry!: ResourceRegistry;
  @Inject(CURSOR_CODEC) private readonly cursors!: CursorCodec;
  @Inject(TransactionRunner) protected readonly transactions!: TransactionRunner;
  @Inject(ModuleRef) private readonly moduleRef!: ModuleRef;
  @Inject(IdempotencyStore) private readonly idempotency!: IdempotencyStore;
  private listener?: WriteListener | null;

  onModuleInit(): void {
    this.registry.register(this);
  }

  // ---- Hooks -------------------------------------------------------------------------------

  /** Narrows every read to the rows the caller may see, in SQL. */
  protected scope(query: SelectQueryBuilder<T>, _context: RequestContext): SelectQueryBuilder<T> {
    return query;
  }

  /** Inside the create's transaction, before the insert: derive values, check rules. */
  protected beforeCreate(_entity: T, _context: WriteContext): Promise<void> | void {}

  /** Inside the update's transaction, before the save; `changes` holds the new values only. */
  protected beforeUpdate(
    _entity: T,
    _changes: ResourceInput,
    _context: WriteContext,
  ): Promise<void> | void {}

  /** Inside the delete's transaction, before the row goes. */
  protected beforeDelete(_entity: T, _context: WriteContext): Promise<void> | void {}

  /** Inside the write's transaction, after the row is written (or deleted). */
  protected afterWrite(
    _entity: T,
    _action: WriteAction,
    _context: WriteContext,
  ): Promise<void> | void {}

  // ---- Operations --------------------------------------------------------------------------

  /** A page of the collection, or of the part of it that `owner` owns (to-many paths). */
  list(
    query: ResourceQuery,
    context: RequestContext,
    owner?: { property: string; id: string },
  ): Promise<Page<T>> {
    const rows = this.query(context, 'list');
    if (owner) {
      rows.andWhere(`${ALIAS}.${this.column(owner.property)} = :ownerId`, { ownerId: owner.id });
    }
    return readPage(rows, query, this.cursors);
  }

  /**
   * One resource; 404 when it does not exist, is not visible, or does not match `filters`.
   * An id the id column cannot hold (U+0000, too long) names nothing: the database is not asked.
   */
  async read(
    id: string,
    context: RequestContext,
    filters: readonly FilterCondition[] = [],
    operation: Operation = 'read',
  ): Promise<T> {
    const scoped = this.query(context, operation).andWhere(`${ALIAS}.id = :id`, { id });
    const entity = isStorableId(id) ? await applyFilters(scoped, filters).getOne() : null;
    if (!entity) {
      const matching = filters.length > 0 ? ' matching the filter' : '';
      throw notFound(`no ${this.definition.type} with id ${id}${matching}`);
    }
    return entity;
  }

  /** Which of `ids` the caller can see (for references in input), in one query. */
  async visibleIds(ids: readonly string[], context: RequestContext): Promise<Set<string>> {
    const storable = ids.filter(isStorableId);
    if (storable.length === 0) return new Set();
    const rows = await this.query(context)
      .select(`${ALIAS}.id`, 'id')
      .andWhere(`${ALIAS}.id IN (:...ids)`, { ids: storable })
      .getRawMany<{ id: string }>();
    return new Set(rows.map((row) => row.id));
  }

  create(input: ResourceInput, context: RequestContext): Promise<T> {
    return this.inTransaction(context, async (write) => {
      const entity = this.repository(write.manager).create({
        ...Object.fromEntries(input),
        ...newRow(),
        ...this.ownedBy(context, input),
      } as unknown as T);
      // Attributes without a column (a password) stay on the object for the hooks to read.
      Object.assign(entity, Object.fromEntries(input));
      await this.beforeCreate(entity, write);
      const saved = await this.repository(write.manager).save(entity);
      await this.written(saved, 'created', write);
      await this.rememberAnswer(saved, write);
      return saved;
    });
  }

  update(id: string, input: ResourceInput, context: RequestContext): Promise<T> {
    return this.inTransaction(context, async (write) => {
      const entity = await this.readForWrite(id, write, 'update');
      assertTransition(this.definition, entity, input, write.caller?.role);
      Object.assign(entity, Object.fromEntries(input), { updatedAt: new Date() });
      await this.beforeUpdate(entity, input, write);
      const saved = await this.repository(write.manager).save(entity);
      await this.written(saved, 'updated', write);
      return saved;
    });
  }

  remove(id: string, context: RequestContext): Promise<T> {
    return this.inTransaction(context, async (write) => {
      const entity = await this.readForWrite(id, write, 'delete');
      await this.beforeDelete(entity, write);
      await this.repository(write.manager).delete({ id } as never);
      if (this.expiresWith()) await this.idempotency.forget(write.manager, id);
      await this.written(entity, 'deleted', write);
      return entity;
    });
  }

  // ---- Helpers for subclasses --------------------------------------------------------------

  protected repository(manager: EntityManager = this.dataSource.manager): Repository<T> {
    return manager.getRepository<T>(this.definition.entity);
  }

  /**
   * A query over this resource as the caller sees it for `operation`: the declared owner's
   * rows only (unless the operation is public or the caller an administrator), then the
   * `scope` hook. Inside a write, on its transaction.
   */
  protected query(context: RequestContext, operation: Operation = 'read'): SelectQueryBuilder<T> {
    const manager = 'manager' in context ? (context as WriteContext).manager : undefined;
    const query = this.repository(manager).createQueryBuilder(ALIAS);
    const { owner } = this.definition;
    const { caller } = context;
    if (
      owner &&
      this.definition.access.get(operation) !== 'public' &&
      caller?.role !== ADMIN_ROLE
    ) {
      query.andWhere(`${ALIAS}.${this.column(owner)} = :callerId`, {
        callerId: caller?.id ?? null,
      });
    }
    return this.scope(query, context);
  }

  // A new row of an owned resource belongs to its creator (unless the owner is the row itself).
  private ownedBy(context: RequestContext, input: ResourceInput): Record<string, string> {
    const { owner } = this.definition;
    if (!owner || owner === 'id' || !context.caller || input.has(owner)) return {};
    return { [owner]: context.caller.id };
  }

  protected column(property: string): string {
    const column = this.repository().metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${this.definition.type} has no column for ${property}`);
    return column.databaseName;
  }

  // The row a write changes, locked until the transaction ends (404 when not the caller's,
  // 412 when If-Match names another version than this one).
  private async readForWrite(id: string, write: WriteContext, operation: Operation): Promise<T> {
    const query = this.transactions.lockForUpdate(
      this.query(write, operation).andWhere(`${ALIAS}.id = :id`, { id }),
    );
    const entity = isStorableId(id) ? await query.getOne() : null;
    if (!entity) throw notFound(`no ${this.definition.type} with id ${id}`);
    assertIfMatch(this.definition, entity, write.ifMatch);
    return entity;
  }

  // With an Idempotency-Key, the answer is stored in the write's own transaction.
  private async rememberAnswer(entity: T, write: WriteContext): Promise<void> {
    if (!write.idempotency) return;
    const body = envelope(ResourceResponse.single(this.definition, entity, true));
    const expiresWith = this.expiresWith();
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

  private expiresWith(): string | undefined {
    return this.definition.idempotency ? this.definition.idempotency.expiresWith : undefined;
  }

  // After every write: the resource's own hook, its history, then the service-wide listener.
  private async written(entity: T, action: WriteAction, write: WriteContext): Promise<void> {
    await this.afterWrite(entity, action, write);
    if (action !== 'deleted') await writeRevision(this.definition, entity, write.manager);
    await this.writeListener()?.onWrite({
      action,
      definition: this.definition,
      entity,
      context: write,
    });
  }

  private inTransaction<R>(
    context: RequestContext,
    work: (write: WriteContext) => Promise<R>,
  ): Promise<R> {
    return this.transactions.run((manager) => work({ ...context, manager }));
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
