import { Controller, Get, Inject, Optional, UseInterceptors } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { KitError } from '../errors/kit.error';
import { EnvelopeInterceptor } from '../http/envelope.interceptor';
import { READ_REPLICAS, type ReadReplicas } from '../persistence/read-replicas';

/** Liveness and readiness probes for load balancers and orchestrators, outside the base path. */
@Controller()
@UseInterceptors(EnvelopeInterceptor)
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    @Optional() @Inject(READ_REPLICAS) private readonly replicas?: ReadReplicas,
  ) {}

  @Get('healthz')
  live() {
    return { status: 'ok' };
  }

  /**
   * 200 while the primary answers; `read-only` while only a replica does (the public reads go
   * on, writes answer 503), so that a gateway keeps sending the reads; 503 otherwise.
   */
  @Get('readyz')
  async ready() {
    if (await answers(this.dataSource.manager)) return { status: 'ok' };
    const replica = this.replicas?.pick();
    if (replica && (await answers(replica))) return { status: 'read-only' };
    throw new KitError('unavailable', ['the database is unavailable'], { 'Retry-After': '5' });
  }
}

async function answers(manager: EntityManager): Promise<boolean> {
  try {
    await manager.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
