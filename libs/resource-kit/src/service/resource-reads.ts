import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { ADMIN_ROLE } from '../auth/caller';
import { isStorableId, type ResourceEntity } from '../decorators/resource-entity';
import { notFound } from '../errors/kit.error';
import type { EntityClass, Operation, ResourceDefinition } from '../metadata/definition';
import { CostlyQueries } from '../persistence/costly-queries';
import { IndexBacking, indexBackingOf, isCostly } from '../persistence/index-backing';
import { READ_REPLICAS, type ReadReplicas } from '../persistence/read-replicas';
import { ALIAS, ResourceTable } from '../persistence/resource-table';
import { Page, Selection, Within } from '../persistence/selection';
import type { CursorCodec } from '../query/cursor.codec';
import type { FilterCondition } from '../query/filter.parser';
import type { ResourceQuery } from '../query/query-parameters.parser';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import type { RequestContext, WriteContext } from './request-context';

export const RESOURCE_DEFINITION = Symbol('RESOURCE_DEFINITION');
export const CURSOR_CODEC = Symbol('CURSOR_CODEC');

/**
 * The reads of one resource, for ResourceService to extend: the rows a caller may see (its
 * owner's, then the `scope` hook, in SQL), pages bound to their cursors, costly lists under
 * their bound, anonymous reads on a replica.
 */
@Injectable()
export abstract class ResourceReads<T extends ResourceEntity = ResourceEntity> {
  @Inject(RESOURCE_DEFINITION) readonly definition!: ResourceDefinition;
  @Inject(DataSource) protected readonly dataSource!: DataSource;
  @Inject(CURSOR_CODEC) private readonly cursors!: CursorCodec;
  @Inject(RESOURCE_KIT_OPTIONS) private readonly kitOptions!: ResolvedKitOptions;
  @Inject(CostlyQueries) private readonly costlyQueries!: CostlyQueries;
  @Optional() @Inject(READ_REPLICAS) private readonly replicas?: ReadReplicas;
  private compiledTable?: ResourceTable<T>;
  private backing?: IndexBacking;

  /** Narrows every read to the rows the caller may see, in SQL. */
  protected scope(query: SelectQueryBuilder<T>, _context: RequestContext): SelectQueryBuilder<T> {
    return query;
  }
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
  protected selection(
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
    if (this.scope === ResourceReads.prototype.scope) return undefined;
    const ids = this.repository(manager).createQueryBuilder(ALIAS).select(`${ALIAS}.id`);
    const [sql, values] = this.scope(ids, context).getQueryAndParameters();
    return { sql, values };
  }
}
