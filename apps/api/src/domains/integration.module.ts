import { Module } from '@nestjs/common';
import { domain } from './integration.domain';
import { EventsModule } from '../modules/events/events.module';
import { WebhooksModule } from '../modules/webhooks/webhooks.module';

/** The integration domain (integration.domain.ts): its resource modules, booted together. */
@Module({ imports: [EventsModule, WebhooksModule] })
export class IntegrationDomain {
  static readonly declaration = domain;
}
