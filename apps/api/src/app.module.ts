import { DynamicModule } from '@nestjs/common';
import { AppConfig } from './config/app-config';
import { AccountsDomain } from './domains/accounts.module';
import { CatalogDomain } from './domains/catalog.module';
import { IntegrationDomain } from './domains/integration.module';
import { OrderingDomain } from './domains/ordering.module';
import { PlatformModule } from './platform.module';

/** The shop: the platform and its four domains (README, "Domains"). */
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return PlatformModule.forRoot(config, [
      CatalogDomain,
      AccountsDomain,
      OrderingDomain,
      IntegrationDomain,
    ]);
  }
}
