import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { join } from 'node:path';
import { ResourceRegistry } from '../controller/resource-registry';
import { notFound } from '../errors/kit.error';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { buildOpenApiDocument } from './openapi.document';

const SWAGGER_UI = join(require.resolve('swagger-ui-dist/package.json'), '..');
const ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
]);

// Responses here are a document and a page, not resources: written directly, unenveloped.
/** GET /openapi.json (the service's OpenAPI 3.1 document) and GET /docs (Swagger UI on it). */
@Controller()
export class OpenApiController {
  private document?: unknown;

  constructor(
    private readonly registry: ResourceRegistry,
    @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
  ) {}

  @Get('openapi.json')
  openApi(@Res() response: Response): void {
    // Built once: declarations do not change while the service runs.
    this.document ??= buildOpenApiDocument(this.registry.definitions(), this.options);
    response.json(this.document);
  }

  @Get('docs')
  docs(@Res() response: Response): void {
    response.type('html').send(DOCS_PAGE);
  }

  @Get('docs/:asset')
  asset(@Param('asset') asset: string, @Res() response: Response): void {
    if (!ASSETS.has(asset)) throw notFound('no such path');
    response.sendFile(join(SWAGGER_UI, asset), { maxAge: '1d' });
  }
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>API documentation</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="docs"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true });</script>
</body>
</html>
`;
