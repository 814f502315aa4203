import { Controller, Get, HttpCode, ServiceUnavailableException } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Liveness and readiness probes for load balancers and orchestrators, outside the base path. */
@Controller()
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('healthz')
  @HttpCode(200)
  live() {
    return { data: { status: 'ok' } };
  }

  @Get('readyz')
  async ready() {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableException({ error: ['database unavailable'] });
    }
    return { data: { status: 'ok' } };
  }
}
