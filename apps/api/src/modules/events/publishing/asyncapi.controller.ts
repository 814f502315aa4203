import { Controller, Get, Inject, Res } from '@nestjs/common';
import { OpenApiService, ResourceRegistry } from '@app/resource-kit';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import { buildAsyncApiDocument } from './asyncapi.document';

/** GET /asyncapi.json: the published messages (AsyncAPI 3), next to GET /openapi.json. */
@Controller()
export class AsyncApiController {
  private document?: object;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly openApi: OpenApiService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('asyncapi.json')
  serve(@Res() response: Response): void {
    // Built on first request: the declarations are all registered by then.
    this.document ??= buildAsyncApiDocument(
      this.registry.definitions(),
      this.openApi.document(),
      this.config.eventPublishing.subjectPrefix,
    );
    response.json(this.document);
  }
}
