import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ResourceModule } from '@app/resource-kit';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MetricsModule } from '../../metrics/metrics.module';
import { EventsModule } from '../events/events.module';
import { ReceiverPolicy } from './receiver-address';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookOutboxEntry } from './webhook-outbox-entry.entity';
import { WebhookHandOut } from './webhook-hand-out';
import { WebhookOutbox } from './webhook-outbox';
import { WebhookOutcomes } from './webhook-outcomes';
import { WebhookWorker } from './webhook-worker';

const receiverPolicy = {
  provide: ReceiverPolicy,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => new ReceiverPolicy(config.webhooks.allowedHosts),
};

/** Webhooks (SPEC 1.17): the endpoints, their deliveries, and the worker that makes them. */
@Module({
  imports: [
    ResourceModule.forFeature(WebhookEndpoint, {
      service: WebhookEndpointsService,
      providers: [receiverPolicy],
    }),
    ResourceModule.forFeature(WebhookDelivery),
    TypeOrmModule.forFeature([WebhookOutboxEntry]),
    MetricsModule,
    EventsModule,
  ],
  providers: [WebhookWorker, WebhookHandOut, WebhookOutcomes, WebhookOutbox],
})
export class WebhooksModule {}
