import type { ResourceEntity } from '../decorators/resource-entity';
import type { Operation, ResourceDefinition } from '../metadata/definition';
import type { ResourceTable } from '../persistence/resource-table';
import type { Conditions, Page } from '../persistence/selection';
import type { FilterCondition } from '../query/filter.parser';
import type { ResourceQuery } from '../query/query-parameters.parser';
import type { ResourceInput } from '../validation/input.parser';
import type { RequestContext } from './request-context';

/**
 * What the kit asks of a declared resource: its declaration, its table and its operations.
 * ResourceService is the one implementation; the registry, the handlers and the history
 * name this instead, so that nothing the service uses depends on the service.
 */
export interface RegisteredResource<T extends ResourceEntity = ResourceEntity> {
  readonly definition: ResourceDefinition;
  readonly table: ResourceTable<T>;
  list(
    query: ResourceQuery,
    context: RequestContext,
    owner?: { property: string; id: string },
  ): Promise<Page<T>>;
  read(
    id: string,
    context: RequestContext,
    filters?: readonly FilterCondition[],
    operation?: Operation,
  ): Promise<T>;
  find(
    id: string,
    context: RequestContext,
    filters?: readonly FilterCondition[],
    operation?: Operation,
  ): Promise<T | undefined>;
  visibleIds(
    ids: readonly string[],
    context: RequestContext,
    ownedAt?: readonly string[],
  ): Promise<Set<string>>;
  readableRows(rows: Conditions, context: RequestContext, parameter: string): void;
  ownedBy(rows: Conditions, path: readonly string[], userId: string | null): void;
  prepareCreation(input: ResourceInput, context: RequestContext): Promise<Partial<T>>;
  replay(data: Record<string, unknown>, context: RequestContext): Promise<Record<string, unknown>>;
  create(input: ResourceInput, context: RequestContext, prepared?: Partial<T>): Promise<T>;
  update(id: string, input: ResourceInput, context: RequestContext): Promise<T>;
  remove(id: string, context: RequestContext): Promise<T>;
}
