// `npm run seed`: applies the migrations and loads the demo catalogue into the configured
// database, unless it already holds products.
process.env.TZ = 'UTC';

import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { loadConfigWithoutSecret } from './config/app-config';
import { seedDemoCatalog } from './database/demo-catalog';
import { exitWithOneLine } from './lifecycle/exit';

async function seed(): Promise<void> {
  // The seed signs no tokens, so it does not ask for the production JWT_SECRET.
  const config = loadConfigWithoutSecret();
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), {
    logger: false,
    abortOnError: false,
  });
  const created = await seedDemoCatalog(app);
  process.stdout.write(
    created > 0
      ? `Loaded ${created} demo products.\n`
      : 'Products exist already; nothing loaded.\n',
  );
  await app.close();
}

seed().catch((error: unknown) => exitWithOneLine('Seed failed', error));
