import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { conflict, invalidInput, KitError, notFound } from '../errors/kit.error';
import { ResourceReads } from './resource-reads';
import type { Operation } from '../metadata/definition';
import type { WriteBatch } from '../persistence/write.batch';
import type { ResourceInput } from '../validation/input.parser';
import { isStorableId, newRow, type ResourceEntity } from '../decorators/resource-entity';
import { RequestContext, WriteContext } from './request-context';
import type { RegisteredResource } from './registered-resource';
import { assertTransition } from './transitions';
import type { WriteAction } from './write-listener';
import { WriteUnits } from './write-units';
import { TransactionRunner } from '../persistence/transaction.runner';
import { unsupportedTypeOrmFeatures } from '../persistence/typeorm-features';
import { viewNameOf, viewOf } from '../auth/caller';
import { assertIfMatch } from '../conditional/precondition';
import { isForeignKeyViolation } from '../persistence/database-errors';
import { deleteRefusal } from './delete-refusal';
import { ownerPathProblem } from '../metadata/owner-path';
import { ownerLevelProblem } from '../metadata/views';

/**
 * The behaviour of one resource. Feature teams extend it and override the named hooks;
 * the operations themselves (and their transactions) stay here, the reads in ResourceReads.
 */
@Injectable()
export class ResourceService<T extends ResourceEntity = ResourceEntity>
  extends ResourceReads<T>
  implements OnModuleInit, RegisteredResource<T>
{
  @Inject(TransactionRunner) protected readonly transactions!: TransactionRunner;
  @Inject(WriteUnits) private readonly writes!: WriteUnits;

  onModuleInit(): void {
    const ownerProblem = ownerPathProblem(this.definition) ?? ownerLevelProblem(this.definition);
    if (ownerProblem) throw new Error(`${this.definition.type}: ${ownerProblem}`);
    const problems = unsupportedTypeOrmFeatures(this.dataSource, this.definition);
    if (problems.length > 0) {
      throw new Error(
        `The kit writes ${this.definition.type} itself, so these would never run:\n  - ${problems.join('\n  - ')}`,
      );
    }
    this.registry.register(this);
  }

  // ---- Hooks -------------------------------------------------------------------------------

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
    return this.writes.run(context, async (write, batch) => {
      // The kit's default owner first: what the input and the resource's own logic set wins
      // (a session belongs to the checked credentials, not to the bearer of a token).
      const entity = new (this.definition.entity as new () => T)();
      Object.assign(
        entity,
        this.defaultOwner(context),
        Object.fromEntries(input),
        values,
        this.tenantRow(context, input),
        newRow(),
      );
      await this.beforeCreate(entity, write);
      await this.writes.react(this.definition, 'creating', entity, write);
      if (this.readsAfterWrite()) await this.table.writes.insert(write.manager, entity);
      else batch.addFirst(this.table.writes.insertion(entity));
      await this.written(entity, 'created', write, batch);
      await this.writes.remember(this.definition, entity, write);
      return entity;
    });
  }

  async update(id: string, input: ResourceInput, context: RequestContext): Promise<T> {
    const values = await this.preparedUpdate(id, input, context);
    return this.writes.run(context, async (write, batch) => {
      const entity = await this.readForWrite(id, write, 'update');
      assertTransition(this.definition, entity, input, write.caller?.role);
      Object.assign(entity, Object.fromEntries(input), values, { updatedAt: new Date() });
      await this.beforeUpdate(entity, input, write);
      await this.writes.react(this.definition, 'updating', entity, write);
      await this.table.writes.update(write.manager, entity);
      await this.written(entity, 'updated', write, batch);
      return entity;
    });
  }

  async remove(id: string, context: RequestContext): Promise<T> {
    try {
      return await this.writes.run(context, async (write, batch) => {
        const entity = await this.readForWrite(id, write, 'delete');
        await this.beforeDelete(entity, write);
        await this.writes.react(this.definition, 'deleting', entity, write);
        await this.table.writes.delete(write.manager, id);
        await this.writes.forget(this.definition, write, id);
        await this.written(entity, 'deleted', write, batch);
        return entity;
      });
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      throw (await deleteRefusal(this.definition, id, this.registry, this.dataSource)) ?? error;
    }
  }

  // ---- Helpers -----------------------------------------------------------------------------

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
    // Owned through a parent (`orderId.userId`): the input names the parent.
    if (!owner || owner === 'id' || owner.includes('.') || !context.caller) return {};
    return { [owner]: context.caller.id };
  }

  // A tenant-scoped row belongs to its creator's tenant, whatever the hooks say, or to the one
  // a cross-tenant operator names; an inherited one to its creator's tenant if it has one.
  private tenantRow({ caller }: RequestContext, input: ResourceInput): Record<string, string> {
    const { tenant } = this.definition;
    if (!tenant || (tenant === 'inherited' && !caller?.tenant)) return {};
    if (caller?.tenant === undefined) {
      throw new KitError('forbidden', [
        `creating ${this.definition.type} needs a caller of a tenant`,
      ]);
    }
    const named = input.get('tenantId') as string | undefined;
    if (caller.tenant === null) {
      if (named !== undefined) return { tenantId: named };
      throw invalidInput([
        `${this.tenantMember()} is required: a cross-tenant operator names the tenant`,
      ]);
    }
    if (named !== undefined && named !== caller.tenant) {
      throw invalidInput([
        `${this.tenantMember()} must be the caller's own tenant (${caller.tenant})`,
      ]);
    }
    return { tenantId: caller.tenant };
  }

  private tenantMember(): string {
    return `data.${this.definition.attributes.find((a) => a.property === 'tenantId')!.name}`;
  }

  // The row a write changes, locked until the transaction ends (404 when not the caller's,
  // 412 when If-Match names another version than this one).
  private async readForWrite(id: string, write: WriteContext, operation: Operation): Promise<T> {
    const [entity] = isStorableId(id)
      ? await this.selection(write, operation).equals('id', id).rows(true)
      : [];
    if (!entity) throw notFound(`no ${this.definition.type} with id ${id}`);
    // The ETag the caller was given is of its own view (SPEC 1.16).
    const { caller, ifMatch } = write;
    const view = viewOf(this.definition, caller);
    assertIfMatch(view, viewNameOf(this.definition, caller), entity, ifMatch);
    return entity;
  }

  // Only an `afterWrite` hook or a reaction may read the new row before the commit; without
  // them, the row's INSERT goes with the batch (its revision, its event): one round trip fewer.
  private readsAfterWrite(): boolean {
    return (
      this.afterWrite !== ResourceService.prototype.afterWrite ||
      this.writes.reactsTo(this.definition, 'created')
    );
  }

  // After every write: the resource's own hook, then what every write does (other modules'
  // reactions, history, the listener).
  private async written(
    entity: T,
    action: WriteAction,
    write: WriteContext,
    batch: WriteBatch,
  ): Promise<void> {
    await this.afterWrite(entity, action, write);
    await this.writes.written(this.definition, entity, action, write, batch);
  }
}
