import { Controller, Get, UseInterceptors } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KitError } from '../errors/kit.error';
import { EnvelopeInterceptor } from '../http/envelope.interceptor';

/** Liveness and readiness probes for load balancers and orchestrators, outside the base path. */
@Controller()
@UseInterceptors(EnvelopeInterceptor)
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('healthz')
  live() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready() {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new KitError('unavailable', ['the database is unavailable'], { 'Retry-After': '5' });
    }
    return { status: 'ok' };
  }
}
