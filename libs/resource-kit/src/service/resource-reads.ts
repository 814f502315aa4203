import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { ADMIN_ROLE } from '../auth/caller';
import { isStorableId, type ResourceEntity } from '../decorators/resource-entity';
import { invalidInput, notFound } from '../errors/kit.error';
import type { EntityClass, Operation, ResourceDefinition } from '../metadata/definition';
import { CostlyQueries, SearchOverBudget, type CostlyRead } from '../persistence/costly-queries';
import {
  IndexBacking,
  indexBackingOf,
  isCostly,
  ownerPathIndexed,
} from '../persistence/index-backing';
import { TrigramWords } from '../persistence/trigram-words';
import { READ_REPLICAS, type ReadReplicas } from '../persistence/read-replicas';
import { ALIAS, ResourceTable } from '../persistence/resource-table';
import { Conditions, Page, Selection, Within } from '../persistence/selection';
import type { CursorCodec } from '../query/cursor.codec';
import type { FilterCondition, RelatedStep } from '../query/filter.parser';
import type { ResourceQuery } from '../query/query-parameters.parser';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import type { RequestContext, WriteContext } from './request-context';
import { ResourceRegistry } from './resource-registry';
import { ownedBy, ownRows, readableRows, tenantRows, type ResourceOf } from './row-access';

// The substrings a query searches for, in its `contains` conditions.
const searchedValues = (filters: readonly FilterCondition[]): string[] =>
  filters.filter((c) => c.operator === 'contains').map((c) => String(c.value));

// What names a query's search among those found not to narrow; none without a `contains`.
function searchKey(type: string, filters: readonly FilterCondition[]): string | undefined {
  const searches = filters
    .filter((condition) => condition.operator === 'contains')
    .map((c) => [...(c.through ?? []).map((step) => step.relationship), c.member.name, c.value]);
  return searches.length > 0 ? JSON.stringify([type, searches]) : undefined;
}

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
  @Inject(ResourceRegistry) protected readonly registry!: ResourceRegistry;
  @Inject(CURSOR_CODEC) private readonly cursors!: CursorCodec;
  @Inject(RESOURCE_KIT_OPTIONS) private readonly kitOptions!: ResolvedKitOptions;
  @Inject(CostlyQueries) private readonly costlyQueries!: CostlyQueries;
  @Inject(TrigramWords) private readonly trigrams!: TrigramWords;
  @Optional() @Inject(READ_REPLICAS) private readonly replicas?: ReadReplicas;
  private compiledTable?: ResourceTable<T>;
  private backing?: IndexBacking;
  private ownerIndexed?: boolean;
  private readonly resourceOf: ResourceOf = (entity) => this.registry.serviceOf(entity);

  /** Narrows every read to the rows the caller may see, in SQL. */
  protected scope(query: SelectQueryBuilder<T>, _context: RequestContext): SelectQueryBuilder<T> {
    return query;
  }
  /**
   * A page of the collection, or of the part of it that `owner` owns (to-many paths). A
   * costly one (SPEC 1.6) runs under the costly bound; so does a search whose index read ran
   * past its budget (its trigrams are in every row), at once and from then on.
   */
  async list(
    query: ResourceQuery,
    context: RequestContext,
    owner?: { property: string; id: string },
  ): Promise<Page<T>> {
    // A cursor serves the collection, the caller and the query it was issued for, only.
    const { caller } = context;
    const scope = JSON.stringify([this.definition.type, owner?.id, caller?.id, caller?.tenant]);
    const binding = `${scope}${query.binding}`;
    const page = (costly?: CostlyRead) => {
      const rows = this.selection(context, 'list');
      if (owner) rows.equals(owner.property, owner.id);
      const filters = this.relatedFilters(rows, query.filters, context);
      if (costly) rows.bounded(costly);
      else rows.searchBudget(this.kitOptions.costlyQueries.searchBudgetMs);
      return rows.page({ ...query, filters, binding }, this.cursors);
    };
    const search = searchKey(this.definition.type, query.filters);
    if (!(await this.isCostlyList(query, context, search))) {
      try {
        return await page();
      } catch (error) {
        if (!(error instanceof SearchOverBudget)) throw error;
        this.costlyQueries.rememberBroad(search!);
      }
    }
    return this.costlyQueries.run(!caller, page);
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
    const rows = this.selection(context, operation).equals('id', id);
    const [entity] = await rows.filter(this.relatedFilters(rows, filters, context)).rows();
    return entity;
  }
  /**
   * Which of `ids` the caller can see (for references in input), in one query; with
   * `ownedAt`, only those whose owner at the end of that path is the caller, unless an
   * administrator calls (the parents a row is owned through, SPEC 1.15).
   */
  async visibleIds(
    ids: readonly string[],
    context: RequestContext,
    ownedAt?: readonly string[],
  ): Promise<Set<string>> {
    const storable = ids.filter(isStorableId);
    if (storable.length === 0) return new Set();
    // Checked for a write: on the primary, which has every row the write may name.
    const rows = this.selection(context, 'read', true).oneOf('id', storable);
    const { caller } = context;
    if (ownedAt && caller?.role !== ADMIN_ROLE) this.ownedBy(rows, ownedAt, caller?.id ?? null);
    return new Set(await rows.ids());
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
  /**
   * Whether a list is a costly query (SPEC 1.6): none is that only the caller's own rows can
   * answer through an index; else one that no index serves, by the database's own trigram
   * rules, or a search found not to narrow.
   */
  private async isCostlyList(
    query: ResourceQuery,
    { caller }: RequestContext,
    search: string | undefined,
  ): Promise<boolean> {
    const { access, owner } = this.definition;
    const confined =
      owner && caller && caller.role !== ADMIN_ROLE && access.get('list') !== 'public';
    this.ownerIndexed ??= ownerPathIndexed(
      this.definition,
      (entity) => this.registry.serviceOf(entity).definition,
    );
    if (confined && this.ownerIndexed) return false;
    if (search !== undefined && this.costlyQueries.isBroad(search)) return true;
    if (search !== undefined) await this.trigrams.learn(searchedValues(query.filters));
    this.backing ??= indexBackingOf(this.definition);
    return isCostly(this.backing, query.filters, query.order, (value) =>
      this.trigrams.searchable(value),
    );
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
    const { caller } = context;
    tenantRows(selection, this.definition, caller, operation);
    ownRows(
      selection,
      this.definition,
      caller,
      this.definition.access.get(operation),
      this.resourceOf,
    );
    return selection;
  }

  /**
   * Narrows rows of this resource, related to those a filter reads, to the ones the caller
   * may read (SPEC 1.15): none when the caller may not read this resource, else its owner's.
   */
  readableRows(rows: Conditions, context: RequestContext, parameter: string): void {
    if (this.scope !== ResourceReads.prototype.scope) {
      throw invalidInput([
        `${parameter}: ${this.definition.type} narrows its rows in code, so no filter goes through it`,
      ]);
    }
    readableRows(rows, this.definition, context.caller, this.resourceOf);
  }

  /** Rows of this resource whose owner, at the end of `path` (its `owner`), is `userId`. */
  ownedBy(rows: Conditions, path: readonly string[], userId: string | null): void {
    ownedBy(rows, this.definition, path, userId, this.resourceOf);
  }

  /**
   * Adds each filter on a related resource (SPEC 1.15) to `rows`, as an EXISTS through its
   * relationships over related rows the caller may read; returns the resource's own filters.
   */
  private relatedFilters(
    rows: Conditions,
    filters: readonly FilterCondition[],
    context: RequestContext,
  ): readonly FilterCondition[] {
    if (!filters.some((condition) => condition.through)) return filters;
    for (const condition of filters) {
      if (!condition.through) continue;
      const names = [...condition.through.map((step) => step.relationship), condition.member.name];
      this.throughRelated(
        rows,
        condition.through,
        condition,
        context,
        `filter[${names.join('.')}]`,
      );
    }
    return filters.filter((condition) => !condition.through);
  }

  private throughRelated(
    rows: Conditions,
    [step, ...rest]: readonly RelatedStep[],
    condition: FilterCondition,
    context: RequestContext,
    parameter: string,
  ): void {
    const target = this.registry.serviceOf(step.target.entity);
    rows.related({ table: target.table, near: step.near, far: step.far }, (related) => {
      target.readableRows(related, context, parameter);
      if (rest.length > 0) this.throughRelated(related, rest, condition, context, parameter);
      else related.filter([condition]);
    });
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
