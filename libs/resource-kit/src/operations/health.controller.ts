import { Controller, Get } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KitError } from '../errors/kit.error';

/** Liveness and readiness probes for load balancers and orchestrators, outside the base path. */
@Controller()
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
