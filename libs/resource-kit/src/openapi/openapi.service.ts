import { Inject, Injectable } from '@nestjs/common';
import { ResourceRegistry } from '../service/resource-registry';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import type { JsonSchema } from '../validation/output.schema';
import { buildOpenApiDocument } from './openapi.document';

/**
 * The service's OpenAPI document: what GET /openapi.json serves, and what a script writes
 * without a server, e.g. to generate a client:
 * `const document = app.get(OpenApiService).document();`
 */
@Injectable()
export class OpenApiService {
  private built?: JsonSchema;

  constructor(
    private readonly registry: ResourceRegistry,
    @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
  ) {}

  // Built once: declarations do not change while the service runs.
  document(): JsonSchema {
    this.built ??= buildOpenApiDocument(this.registry.definitions(), this.options);
    return this.built;
  }
}
