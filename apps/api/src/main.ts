// First, before any native module loads: refuse an unsupported Node with a clear message.
import './lifecycle/require-supported-node';
// Then tracing, when the OTEL_* variables ask for it, before the modules it instruments load.
import './telemetry/start-tracing';
// Times are stored as UTC in zone-less columns on both engines; the process must agree.
process.env.TZ = 'UTC';

import 'reflect-metadata';
import { INestApplication, Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp } from './app.factory';
import { AppConfig, loadConfig } from './config/app-config';
import { seedDemoCatalog } from './database/demo-catalog';
import { DriftedResources, driftLines, driftOf, driftRefusal } from './database/schema-drift';
import { developmentSecrets, DEVELOPMENT_SECRETS_FILE } from './config/development-secrets';
import { reasonOf } from './lifecycle/exit';
import { refuseToStart } from './lifecycle/refuse-to-start';
import { HttpDrain } from './lifecycle/http-drain';
import { stopTracing } from './telemetry/tracing';

// After the HTTP drain: how long closing the database and Redis may take.
const CLOSE_MS = 2_000;

async function main(): Promise<void> {
  const kept = process.env.NODE_ENV === 'development' ? developmentSecrets() : undefined;
  const config = loadConfig(process.env, kept);
  const app = await createApp(config);
  const drain = new HttpDrain(app.getHttpServer() as Server);
  app.use(drain.admit);
  const drifted = new DriftedResources(config.basePath);
  if (config.nodeEnv === 'development') app.use(drifted.answer);
  await app.init();
  const drift = await driftOf(app);
  if (drift.length > 0 && config.nodeEnv !== 'development') throw new Error(driftRefusal(drift));
  drifted.add(drift);
  // Development starts with something to browse.
  const seeded =
    config.nodeEnv === 'development' && drift.length === 0 ? await seedDemoCatalog(app) : 0;
  await app.listen(config.port);
  stopOnSignals(app, drain, config.shutdownGraceMs);
  announce(app, config, [
    ...(seeded > 0 ? [`Loaded ${seeded} demo products`] : []),
    ...adminTokenLines(config, kept?.created ?? false),
    ...driftLines(drift),
  ]);
}

// Development prints plain lines for the person at the terminal; elsewhere one JSON log line.
function announce(app: INestApplication, config: AppConfig, development: string[]): void {
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  const listening = `Listening on http://localhost:${port}${config.basePath} (${config.database.type}, ${config.nodeEnv})`;
  if (config.nodeEnv !== 'development') return new Logger('Bootstrap').log(listening);
  process.stdout.write(`${[listening, ...development].join('\n')}\n`);
}

// The token in full once, when it is made: it stays the same across restarts of this checkout.
function adminTokenLines(config: AppConfig, made: boolean): string[] {
  const token = config.generatedAdminToken;
  if (!token) return [];
  return made
    ? [
        `STATIC_TOKENS is unset: development admin token (kept in ${DEVELOPMENT_SECRETS_FILE}): ${token}`,
      ]
    : [`Development admin token: as before, in ${DEVELOPMENT_SECRETS_FILE}`];
}

// SIGTERM or SIGINT: drain HTTP within the grace period, close the database, exit 0.
// A second signal ends the process at once (no handler is left).
function stopOnSignals(app: INestApplication, drain: HttpDrain, graceMs: number): void {
  const logger = new Logger('Shutdown');
  const stop = async (signal: NodeJS.Signals) => {
    logger.log(`${signal}: draining requests in flight (grace period ${graceMs} ms)`);
    const cut = await drain.drain(graceMs);
    if (cut > 0)
      logger.warn(`${cut} request(s) still running after the grace period: answered 503`);
    const closed = await Promise.race([app.close().then(() => true), sleep(CLOSE_MS, false)]);
    if (!closed) logger.warn(`the database did not close within ${CLOSE_MS} ms; exiting anyway`);
    // The last requests' spans, when tracing is on.
    await Promise.race([stopTracing(), sleep(CLOSE_MS)]);
    logger.log('Stopped');
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => void stop(signal));
  }
}

// A refused configuration, the database unreachable, a refused declaration: one line, its
// cause, naming the setting to fix.
main().catch((error: unknown) => refuseToStart(reasonOf(error)));
