import { Injectable } from '@nestjs/common';
import type { EntityClass, ResourceDefinition } from '../metadata/definition';
import type { ResourceService } from './resource.service';

/** Every resource of the service and its service object, for references and relationships. */
@Injectable()
export class ResourceRegistry {
  private readonly services = new Map<EntityClass, ResourceService>();
  private readonly byType = new Map<string, ResourceService>();

  register(service: ResourceService): void {
    this.services.set(service.definition.entity, service);
    this.byType.set(service.definition.type, service);
  }

  /** The service of the resource whose path segment is `type`, if one is declared. */
  serviceOfType(type: string): ResourceService | undefined {
    return this.byType.get(type);
  }

  serviceOf(entity: EntityClass): ResourceService {
    const service = this.services.get(entity);
    if (!service) throw new Error(`${entity.name} is not a registered resource`);
    return service;
  }

  definitions(): ResourceDefinition[] {
    return [...this.services.values()].map((service) => service.definition);
  }
}
