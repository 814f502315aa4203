// `npm run seed`: applies the migrations and loads the demo catalogue into the configured
// database, unless it already holds products.
process.env.TZ = 'UTC';

import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { loadConfig } from './config/app-config';
import { seedDemoCatalog } from './database/demo-catalog';

async function seed(): Promise<void> {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(loadConfig()), {
    logger: ['error'],
  });
  const created = await seedDemoCatalog(app);
  process.stdout.write(
    created > 0
      ? `Loaded ${created} demo products.\n`
      : 'Products exist already; nothing loaded.\n',
  );
  await app.close();
}

void seed();
