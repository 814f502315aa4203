import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { notFound } from '../errors/kit.error';
import { OpenApiService } from './openapi.service';

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
  constructor(private readonly openApi: OpenApiService) {}

  @Get('openapi.json')
  document(@Res() response: Response): void {
    response.json(this.openApi.document());
  }

  @Get('docs')
  docs(@Res() response: Response): void {
    response.set('Content-Security-Policy', DOCS_POLICY).type('html').send(DOCS_PAGE);
  }

  @Get('docs/:asset')
  asset(@Param('asset') asset: string, @Res() response: Response): void {
    if (!ASSETS.has(asset)) throw notFound('no such path');
    response.sendFile(join(SWAGGER_UI, asset), { maxAge: '1d' });
  }
}

// No validatorUrl: the page fetches nothing from elsewhere.
const DOCS_SCRIPT = `SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true, validatorUrl: null });`;

// The page's own policy, whatever a service sends by default: its assets, its one inline
// script (by hash), inline styles and data: images (Swagger UI uses both), nothing else.
const DOCS_POLICY = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${createHash('sha256').update(DOCS_SCRIPT).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

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
<script>${DOCS_SCRIPT}</script>
</body>
</html>
`;
