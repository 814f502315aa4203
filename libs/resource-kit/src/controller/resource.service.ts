import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { conflict, notFound } from '../errors/kit.error';
import type { EntityClass, Operation, ResourceDefinition } from '../metadata/definition';
import { ADMIN_ROLE } from '../auth/caller';
import { ALIAS, ResourceTable } from '../persistence/resource-table';
import { READ_REPLICAS, type ReadReplicas } from '../persistence/read-replicas';
import { Page, Selection, Within } from '../persistence/selection';
import { CostlyQueries } from '../persistence/costly-queries';
import { IndexBacking, indexBackingOf, isCostly } from '../persistence/index-backing';
import type { WriteBatch } from '../persistence/write.batch';
import type { CursorCodec } from '../query/cursor.codec';
import type { ResourceQuery } from '../query/query-parameters.parser';
import type { FilterCondition } from '../query/filter.parser';
import type { ResourceInput } from '../validation/input.parser';
import { isStorableId, newRow, type ResourceEntity } from '../decorators/resource-entity';
import { RequestContext, WriteContext } from './request-context';
import { ResourceRegistry } from './resource-registry';
import { revisionOf } from './history.writer';
import { assertTransition } from './transitions';
import { WRITE_LISTENER, WriteAction, WriteListener } from './write-listener';
import { TransactionRunner } from '../persistence/transaction.runner';
import { unsupportedTypeOrmFeatures } from '../persistence/typeorm-features';
import { assertIfMatch } from '../conditional/precondition';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { serializeResource } from '../serialization/resource.serializer';

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
  @Inject(RESOURCE_KIT_OPTIONS) private readonly kitOptions!: ResolvedKitOptions;
  @Inject(CostlyQueries) private readonly costlyQueries!: CostlyQueries;
  @Optional() @Inject(READ_REPLICAS) private readonly replicas?: ReadReplicas;
  private listener?: WriteListener | null;
  private compiledTable?: ResourceTable<T>;
  private backing?: IndexBacking;

  onModuleInit(): void {
    const problems = unsupportedTypeOrmFeatures(this.dataSource, this.definition);
    if (problems.length > 0) {
      throw new Error(
        `The kit writes ${this.definition.type} itself, so these would never run:\n  - ${problems.join('\n  - ')}`,
      );
    }
    this.registry.register(this);
  }

  // ---- Hooks -------------------------------------------------------------------------------

  /** Narrows every read to the rows the caller may see, in SQL. */
  protected scope(query: SelectQueryBuilder<T>, _context: RequestContext): SelectQueryBuilder<T> {
    return query;
  }

  /**
   * Before the create's transaction, and before a repeated Idempotency-Key is answered: slow
   * work that needs no lock (hashing or checking a password) and checks that must hold for a
   * repeat too (a rate limit). The values it returns are set on the new entity.
   */
  protected prepareCreate(
    _input: ResourceInput,
    _context: RequestContext,
  ): Promise<Partial<T> | void> | Partial<T> | void {}

  /**
   * Before the update's transaction: slow work that needs no lock, given the resource as it is
   * (read outside the transaction). The values it returns are set on the entity.
   */
  protected prepareUpdate(
    _current: T,
    _changes: ResourceInput,
    _context: RequestContext,
  ): Promise<Partial<T> | void> | Partial<T> | void {}

  /**
   * The data of a stored answer to a repeated create (the same Idempotency-Key), which holds
   * no on-create outputs: they may be secrets (a token), so the kit never keeps them. Give them
   * again, or throw to refuse. By default a resource with on-create outputs refuses (409).
   */
  protected replayCreate(
    data: Record<string, unknown>,
    _context: RequestContext,
  ): Promise<Record<string, unknown>> | Record<string, unknown> {
    if (this.definition.attributes.some((attribute) => attribute.output === 'on-create')) {
      throw conflict(
        'this request succeeded, but its answer held a secret that is not kept; send it again with a new Idempotency-Key',
      );
    }
    return data;
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
    const rows = this.selection(context, 'list');
    if (owner) rows.equals(owner.property, owner.id);
    // A cursor serves the collection, the caller and the query it was issued for, only.
    const scope = JSON.stringify([this.definition.type, owner?.id, context.caller?.id]);
    const page = () => rows.page({ ...query, binding: `${scope}${query.binding}` }, this.cursors);
    if (!isCostly(this.indexBacking, query.filters, query.order)) return page();
    return this.costlyQueries.run(!context.caller, (settings) => {
      rows.bounded(settings);
      return page();
    });
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
    const entity = await this.find(id, context, filters, operation);
    if (!entity) {
      const matching = filters.length > 0 ? ' matching the filter' : '';
      throw notFound(`no ${this.definition.type} with id ${id}${matching}`);
    }
    return entity;
  }

  /** `read` for services: undefined instead of 404. */
  async find(
    id: string,
    context: RequestContext,
    filters: readonly FilterCondition[] = [],
    operation: Operation = 'read',
  ): Promise<T | undefined> {
    if (!isStorableId(id)) return undefined;
    const [entity] = await this.selection(context, operation)
      .equals('id', id)
      .filter(filters)
      .rows();
    return entity;
  }

  /** Which of `ids` the caller can see (for references in input), in one query. */
  async visibleIds(ids: readonly string[], context: RequestContext): Promise<Set<string>> {
    const storable = ids.filter(isStorableId);
    if (storable.length === 0) return new Set();
    // Checked for a write: on the primary, which has every row the write may name.
    return new Set(await this.selection(context, 'read', true).oneOf('id', storable).ids());
  }

  /** The `prepareCreate` hook's values for `create`, computed outside any transaction. */
  async prepareCreation(input: ResourceInput, context: RequestContext): Promise<Partial<T>> {
    return (await this.prepareCreate(input, context)) ?? {};
  }

  /** The answer to a repeated create, from the data stored with its key (`replayCreate`). */
  async replay(
    data: Record<string, unknown>,
    context: RequestContext,
  ): Promise<Record<string, unknown>> {
    return this.replayCreate(data, context);
  }

  async create(input: ResourceInput, context: RequestContext, prepared?: Partial<T>): Promise<T> {
    const values = prepared ?? (await this.prepareCreation(input, context));
    return this.inTransaction(context, async (write, batch) => {
      // The kit's default owner first: what the input and the resource's own logic set wins
      // (a session belongs to the checked credentials, not to the bearer of a token).
      const entity = new (this.definition.entity as new () => T)();
      Object.assign(
        entity,
        this.defaultOwner(context),
        Object.fromEntries(input),
        values,
        newRow(),
      );
      await this.beforeCreate(entity, write);
      if (this.readsAfterWrite()) await this.table.writes.insert(write.manager, entity);
      else batch.add(this.table.writes.insertion(entity));
      await this.written(entity, 'created', write, batch);
      await this.rememberAnswer(entity, write);
      return entity;
    });
  }

  async update(id: string, input: ResourceInput, context: RequestContext): Promise<T> {
    const values = await this.preparedUpdate(id, input, context);
    return this.inTransaction(context, async (write, batch) => {
      const entity = await this.readForWrite(id, write, 'update');
      assertTransition(this.definition, entity, input, write.caller?.role);
      Object.assign(entity, Object.fromEntries(input), values, { updatedAt: new Date() });
      await this.beforeUpdate(entity, input, write);
      await this.table.writes.update(write.manager, entity);
      await this.written(entity, 'updated', write, batch);
      return entity;
    });
  }

  remove(id: string, context: RequestContext): Promise<T> {
    return this.inTransaction(context, async (write, batch) => {
      const entity = await this.readForWrite(id, write, 'delete');
      await this.beforeDelete(entity, write);
      await this.table.writes.delete(write.manager, id);
      if (this.expiresWith()) await this.idempotency.forget(write.manager, id);
      await this.written(entity, 'deleted', write, batch);
      return entity;
    });
  }

  // ---- Helpers for subclasses --------------------------------------------------------------

  protected repository(manager: EntityManager = this.dataSource.manager): Repository<T> {
    return manager.getRepository<T>(this.definition.entity);
  }

  /** This resource's table: its statements compiled once, on first use. */
  get table(): ResourceTable<T> {
    this.compiledTable ??= new ResourceTable<T>(
      this.dataSource,
      this.definition.entity as EntityClass<T>,
      this.kitOptions.namedStatements,
    );
    return this.compiledTable;
  }

  // What the declared indexes serve: whether a list is a costly query (SPEC 1.6).
  private get indexBacking(): IndexBacking {
    this.backing ??= indexBackingOf(this.definition);
    return this.backing;
  }

  /**
   * The rows of this resource the caller sees for `operation`: the declared owner's rows only
   * (unless the operation is public or the caller an administrator), then the `scope` hook.
   * Inside a write, on its transaction.
   */
  private selection(
    context: RequestContext,
    operation: Operation = 'read',
    onPrimary = false,
  ): Selection<T> {
    const write = 'manager' in context ? (context as WriteContext).manager : undefined;
    // Anonymous reads outside a write may lag on a replica; a caller's see their own writes.
    const replica = write || context.caller || onPrimary ? undefined : this.replicas?.pick();
    const manager = write ?? replica ?? this.dataSource.manager;
    const selection = new Selection(
      this.table,
      manager,
      this.scoped(context, manager),
      replica && { primary: this.dataSource.manager, replicas: this.replicas! },
    );
    const { owner } = this.definition;
    const { caller } = context;
    if (
      owner &&
      this.definition.access.get(operation) !== 'public' &&
      caller?.role !== ADMIN_ROLE
    ) {
      selection.equals(owner, caller?.id ?? null);
    }
    return selection;
  }

  // Only a resource that overrides `scope` pays for a query builder: its conditions become an
  // id subquery of the compiled statement.
  private scoped(context: RequestContext, manager: EntityManager): Within | undefined {
    if (this.scope === ResourceService.prototype.scope) return undefined;
    const ids = this.repository(manager).createQueryBuilder(ALIAS).select(`${ALIAS}.id`);
    const [sql, values] = this.scope(ids, context).getQueryAndParameters();
    return { sql, values };
  }

  // Only a resource that overrides `prepareUpdate` pays for reading the row before the write.
  private async preparedUpdate(
    id: string,
    input: ResourceInput,
    context: RequestContext,
  ): Promise<Partial<T>> {
    if (this.prepareUpdate === ResourceService.prototype.prepareUpdate) return {};
    const current = await this.read(id, context, [], 'update');
    return (await this.prepareUpdate(current, input, context)) ?? {};
  }

  // A new row of an owned resource belongs to its creator (unless the owner is the row itself),
  // unless the input or a hook names its owner.
  private defaultOwner(context: RequestContext): Record<string, string> {
    const { owner } = this.definition;
    if (!owner || owner === 'id' || !context.caller) return {};
    return { [owner]: context.caller.id };
  }

  // The row a write changes, locked until the transaction ends (404 when not the caller's,
  // 412 when If-Match names another version than this one).
  private async readForWrite(id: string, write: WriteContext, operation: Operation): Promise<T> {
    const [entity] = isStorableId(id)
      ? await this.selection(write, operation).equals('id', id).rows(true)
      : [];
    if (!entity) throw notFound(`no ${this.definition.type} with id ${id}`);
    assertIfMatch(this.definition, entity, write.ifMatch);
    return entity;
  }

  // With an Idempotency-Key, the answer is stored in the write's own transaction.
  private async rememberAnswer(entity: T, write: WriteContext): Promise<void> {
    if (!write.idempotency) return;
    // Without the on-create outputs: a secret (a token) is never stored (SPEC 1.12).
    const body = { data: serializeResource(this.definition, entity, { created: false }) };
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

  // Only an `afterWrite` hook may read the new row before the commit; without one, the row's
  // INSERT goes with the batch (its revision, its event): one round trip fewer per create.
  private readsAfterWrite(): boolean {
    return this.afterWrite !== ResourceService.prototype.afterWrite;
  }

  private expiresWith(): string | undefined {
    return this.definition.idempotency ? this.definition.idempotency.expiresWith : undefined;
  }

  // After every write: the resource's own hook, its history, then the service-wide listener.
  private async written(
    entity: T,
    action: WriteAction,
    write: WriteContext,
    batch: WriteBatch,
  ): Promise<void> {
    await this.afterWrite(entity, action, write);
    const { history } = this.definition;
    if (history && action !== 'deleted') {
      const revisions = this.registry.serviceOf(history.target());
      batch.add(revisionOf(revisions, history.owner, entity));
    }
    await this.writeListener()?.onWrite({
      action,
      definition: this.definition,
      entity,
      context: write,
    });
  }

  // A created row (see readsAfterWrite), the write's revision and the listener's rows go in
  // one batch, sent after the write's work.
  private inTransaction<R>(
    context: RequestContext,
    work: (write: WriteContext, batch: WriteBatch) => Promise<R>,
  ): Promise<R> {
    return this.transactions.run(async (manager) => {
      const batch = this.transactions.batch();
      const record = (entity: EntityClass, row: object) =>
        batch.add(this.registry.tableOf(entity).writes.insertion(row));
      const result = await work({ ...context, manager, record }, batch);
      await batch.flush(manager);
      return result;
    });
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
