import type { NestApplicationOptions } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { HttpEdgeConfig } from '../config/app-config';

/**
 * Security headers for a JSON API: no sniffing, no framing, no referrer, and a CSP that lets
 * a JSON answer load nothing (the /docs page declares its own). Helmet's choice of headers,
 * taken once: they do not depend on the request, and helmet rebuilds its CSP for every one.
 * Express must not add X-Powered-By (helmet would have removed it): see app.factory.ts.
 */
export function securityHeaders(config: HttpEdgeConfig) {
  const headers = headersSetBy(helmetFor(config));
  return (_request: Request, response: Response, next: NextFunction): void => {
    response.setHeaders(headers);
    next();
  };
}

function helmetFor({ hstsMaxAge }: HttpEdgeConfig) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // TLS ends at the gateway: HSTS only when the operator says the service is HTTPS-only.
    strictTransportSecurity:
      hstsMaxAge > 0 ? { maxAge: hstsMaxAge, includeSubDomains: false } : false,
  });
}

// What a middleware sets on a response.
function headersSetBy(
  middleware: (request: IncomingMessage, response: ServerResponse, next: () => void) => void,
): Map<string, string> {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  middleware(response.req, response, () => undefined);
  return new Map(
    Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]),
  );
}

// The cors package's options, as Nest's public API names them.
type CorsOptions = Exclude<
  NestApplicationOptions['cors'],
  boolean | ((...args: never[]) => unknown) | undefined
>;
type CorsDelegate = (
  request: Request,
  callback: (error: Error | null, options: CorsOptions) => void,
) => void;

const CORS: CorsOptions = {
  methods: ['GET', 'POST', 'PATCH', 'DELETE'],
  allowedHeaders: [
    'Authorization',
    'Content-Type',
    'Idempotency-Key',
    'If-Match',
    'If-None-Match',
    'X-Request-Id',
  ],
  exposedHeaders: [
    'Allow',
    'Deprecation',
    'ETag',
    'Idempotent-Replayed',
    'Retry-After',
    'Sunset',
    'WWW-Authenticate',
    'X-Request-Id',
  ],
  maxAge: 600,
  optionsSuccessStatus: 204,
};

/**
 * With CORS on, answers differ by Origin (with or without Access-Control-Allow-Origin): say so
 * on every answer, so that a shared cache never hands one origin's answer to another.
 */
export function varyOnOrigin(_request: Request, response: Response, next: NextFunction): void {
  response.vary('Origin');
  next();
}

/**
 * CORS for the listed origins only: another origin gets no CORS header at all, and an
 * OPTIONS that is not a preflight goes on to the API (405 as any other unsupported verb).
 */
export function corsFor(origins: readonly string[]): CorsDelegate {
  const allowed = new Set(origins);
  return (request, callback) => {
    const { origin } = request.headers;
    if (origin === undefined || !allowed.has(origin)) return callback(null, { origin: false });
    const preflight =
      request.method === 'OPTIONS' &&
      request.headers['access-control-request-method'] !== undefined;
    callback(null, { ...CORS, origin, preflightContinue: !preflight });
  };
}
