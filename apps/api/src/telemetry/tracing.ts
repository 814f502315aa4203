import type { IncomingMessage } from 'node:http';
import type { NodeSDK } from '@opentelemetry/sdk-node';

// Probes and scrapes come every few seconds from every gateway and Prometheus: not traced.
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

let sdk: NodeSDK | undefined;

/**
 * Whether the standard OTEL_* variables ask for traces: an OTLP endpoint or a traces exporter
 * is named, and the SDK is not disabled. Otherwise nothing is loaded and nothing exported.
 */
export function tracesRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT ||
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
    env.OTEL_TRACES_EXPORTER,
  );
}

export function tracingStarted(): boolean {
  return sdk !== undefined;
}

/**
 * Starts the OpenTelemetry Node SDK, configured by the OTEL_* variables (exporter, endpoint,
 * protocol, sampler, propagators), with the instrumentations of http, express, pg, ioredis and
 * pino (trace_id and span_id on every log line of a request). It must run before those modules
 * are loaded: main.ts imports it first. Only traces are exported; metrics stay on /metrics.
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): void {
  if (sdk || !tracesRequested(env)) return;
  // Loaded only when tracing is on: the SDK and its exporters weigh on memory and start-up.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeSDK } =
    require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation, ExpressLayerType } =
    require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const { PinoInstrumentation } =
    require('@opentelemetry/instrumentation-pino') as typeof import('@opentelemetry/instrumentation-pino');
  /* eslint-enable @typescript-eslint/no-require-imports */
  // The SDK would also start metric and log exporters when their variables are unset.
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ? undefined : 'shop-api',
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) =>
          UNTRACED_PATHS.has((request.url ?? '').split('?')[0]),
      }),
      // Route handlers and routers; a span per middleware would bury them.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Statements of a request only: not the replica probes' or the event relay's polls.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
      new PinoInstrumentation(),
    ],
  });
  sdk.start();
}

/** Sends the spans still buffered; at shutdown, after the HTTP server has drained. */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown();
}
