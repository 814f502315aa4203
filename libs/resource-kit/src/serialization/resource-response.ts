import type { ResourceDefinition } from '../metadata/definition';

/** What a resource handler returns; `envelope` serializes and checks it. */
export class ResourceResponse {
  private constructor(
    readonly definition: ResourceDefinition,
    readonly body:
      | { entity: object; created: boolean }
      | { entities: readonly object[]; cursor?: string | null },
  ) {}

  static single(definition: ResourceDefinition, entity: object, created = false): ResourceResponse {
    return new ResourceResponse(definition, { entity, created });
  }

  static collection(
    definition: ResourceDefinition,
    entities: readonly object[],
    cursor?: string | null,
  ): ResourceResponse {
    return new ResourceResponse(definition, { entities, cursor });
  }
}
