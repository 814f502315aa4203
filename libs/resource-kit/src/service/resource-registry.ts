import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { EntityClass, ResourceDefinition } from '../metadata/definition';
import { ResourceTable } from '../persistence/resource-table';
import type { RegisteredResource } from './registered-resource';

/** Every resource of the service and its service object, for references and relationships. */
@Injectable()
export class ResourceRegistry {
  private readonly services = new Map<EntityClass, RegisteredResource>();
  private readonly byType = new Map<string, RegisteredResource>();
  private readonly otherTables = new Map<EntityClass, ResourceTable>();

  constructor(private readonly dataSource: DataSource) {}

  register(service: RegisteredResource): void {
    this.services.set(service.definition.entity, service);
    this.byType.set(service.definition.type, service);
  }

  /** The service of the resource whose path segment is `type`, if one is declared. */
  serviceOfType(type: string): RegisteredResource | undefined {
    return this.byType.get(type);
  }

  /** Whether `entity` is a declared resource whose rows may be of a tenant (SPEC 1.15). */
  isTenantScoped(entity: EntityClass): boolean {
    return Boolean(this.services.get(entity)?.definition.tenant);
  }

  serviceOf(entity: EntityClass): RegisteredResource {
    const service = this.services.get(entity);
    if (!service) throw new Error(`${entity.name} is not a registered resource`);
    return service;
  }

  /**
   * The table a write records a row in: a resource's own, or that of any other TypeORM entity
   * (an outbox), whose statements are written once too.
   */
  tableOf(entity: EntityClass): ResourceTable {
    const service = this.services.get(entity);
    if (service) return service.table;
    let table = this.otherTables.get(entity);
    if (!table) {
      table = new ResourceTable(this.dataSource, entity, false);
      this.otherTables.set(entity, table);
    }
    return table;
  }

  definitions(): ResourceDefinition[] {
    return [...this.services.values()].map((service) => service.definition);
  }
}
