// Times are stored as UTC in zone-less columns on both engines; the process must agree.
process.env.TZ = 'UTC';

import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.factory';
import { ConfigurationError } from './config/environment';
import { AppConfig, loadConfig } from './config/app-config';
import { seedDemoCatalog } from './database/demo-catalog';

async function main(): Promise<void> {
  const config = loadOrExit();
  const app = await createApp(config);
  await app.init();
  // Development starts with something to browse.
  const seeded = config.nodeEnv === 'development' ? await seedDemoCatalog(app) : 0;
  await app.listen(config.port);
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  const url = `http://localhost:${port}${config.basePath}`;
  const logger = new Logger('Bootstrap');
  logger.log(`Listening on ${url} (${config.database.type}, ${config.nodeEnv})`);
  if (seeded > 0) logger.log(`Loaded ${seeded} demo products`);
  if (config.generatedAdminToken) {
    logger.log(
      `STATIC_TOKENS is unset: development admin token for this run: ${config.generatedAdminToken}`,
    );
  }
}

function loadOrExit(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    process.stderr.write(`Refusing to start. ${error.message}\n`);
    process.exit(1);
  }
}

void main();
