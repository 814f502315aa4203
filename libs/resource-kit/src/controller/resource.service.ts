import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { invalidInput, notFound } from '../errors/kit.error';
import type { Operation, ResourceDefinition } from '../metadata/definition';
import { ADMIN_ROLE } from '../auth/caller';
import { ALIAS, applyFilters, Page, readPage } from '../persistence/page.query';
import type { CursorCodec } from '../query/cursor.codec';
import type { ResourceQuery } from '../query/query-parameters.parser';
import type { FilterCondition } from '../query/filter.parser';
import type { ResourceInput } from '../validation/input.parser';
import type { ResourceEntity } from '../decorators/resource-entity';
import { RequestContext, WriteContext } from './request-context';
import { ResourceRegistry } from './resource-registry';

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

  /** One resource; 404 when it does not exist, is not visible, or does not match `filters`. */
  async read(
    id: string,
    context: RequestContext,
    filters: readonly FilterCondition[] = [],
    operation: Operation = 'read',
  ): Promise<T> {
    const scoped = this.query(context, operation).andWhere(`${ALIAS}.id = :id`, { id });
    const query = applyFilters(scoped, filters);
    const entity = await query.getOne();
    if (!entity) {
      const matching = filters.length > 0 ? ' matching the filter' : '';
      throw notFound(`no ${this.definition.type} with id ${id}${matching}`);
    }
    return entity;
  }

  /** Whether the caller can see the resource `id` (for references in input). */
  async isVisible(id: string, context: RequestContext): Promise<boolean> {
    return (await this.query(context).andWhere(`${ALIAS}.id = :id`, { id }).getCount()) > 0;
  }

  create(input: ResourceInput, context: RequestContext): Promise<T> {
    return this.inTransaction(context, async (write) => {
      const now = new Date();
      const entity = this.repository(write.manager).create({
        ...Object.fromEntries(input),
        id: uuidv7(),
        createdAt: now,
        updatedAt: now,
        ...this.ownedBy(context),
      } as unknown as T);
      // Attributes without a column (a password) stay on the object for the hooks to read.
      Object.assign(entity, Object.fromEntries(input));
      await this.beforeCreate(entity, write);
      return this.repository(write.manager).save(entity);
    });
  }

  update(id: string, input: ResourceInput, context: RequestContext): Promise<T> {
    return this.inTransaction(context, async (write) => {
      const entity = await this.read(id, write, [], 'update');
      Object.assign(entity, Object.fromEntries(input), { updatedAt: new Date() });
      await this.beforeUpdate(entity, input, write);
      return this.repository(write.manager).save(entity);
    });
  }

  remove(id: string, context: RequestContext): Promise<T> {
    return this.inTransaction(context, async (write) => {
      const entity = await this.read(id, write, [], 'delete');
      await this.beforeDelete(entity, write);
      await this.repository(write.manager).delete({ id } as never);
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
  private ownedBy(context: RequestContext): Record<string, string> {
    const { owner } = this.definition;
    return owner && owner !== 'id' && context.caller ? { [owner]: context.caller.id } : {};
  }

  protected column(property: string): string {
    const column = this.repository().metadata.findColumnWithPropertyName(property);
    if (!column) throw invalidInput([`unknown member ${property}`]);
    return column.databaseName;
  }

  private inTransaction<R>(
    context: RequestContext,
    work: (write: WriteContext) => Promise<R>,
  ): Promise<R> {
    return this.dataSource.transaction((manager) => work({ ...context, manager }));
  }
}
