import { Injectable } from '@nestjs/common';
import type { EntityClass, ResourceDefinition } from '../metadata/definition';
import type { ResourceService } from './resource.service';

/** Every resource of the service and its service object, for references and relationships. */
@Injectable()
export class ResourceRegistry {
  private readonly services = new Map<EntityClass, ResourceService>();

  register(service: ResourceService): void {
    this.services.set(service.definition.entity, service);
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
