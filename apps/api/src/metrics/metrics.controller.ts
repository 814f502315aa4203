import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { KitError, notFound } from '@app/resource-kit';
import type { Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MetricsService } from './metrics.service';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** GET /metrics in Prometheus's text format, outside the base path and the envelope. */
@Controller()
export class MetricsController {
  private readonly expected?: Buffer;
  // Without METRICS_TOKEN, production never serves metrics to an anonymous caller (SPEC 1.12).
  private readonly off: boolean;

  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) { metricsToken, nodeEnv }: AppConfig,
  ) {
    this.expected = metricsToken === undefined ? undefined : sha256(`Bearer ${metricsToken}`);
    this.off = metricsToken === undefined && nodeEnv === 'production';
  }

  @Get('metrics')
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    this.assertAllowed(authorization);
    const { registry } = this.metrics;
    response.type(registry.contentType).send(await registry.metrics());
  }

  // Hashes have one length, so the comparison takes the same time for every wrong token.
  private assertAllowed(authorization: string | undefined): void {
    if (this.off) throw notFound('GET /metrics is off: set METRICS_TOKEN to serve it');
    if (!this.expected) return;
    if (authorization && timingSafeEqual(sha256(authorization), this.expected)) return;
    throw new KitError(
      'unauthenticated',
      ['GET /metrics needs Authorization: Bearer <METRICS_TOKEN>'],
      {
        'WWW-Authenticate': 'Bearer',
      },
    );
  }
}
