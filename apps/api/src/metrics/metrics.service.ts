import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Pool } from 'pg';
import { collectDefaultMetrics, Counter, Gauge, type Metric, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { CostlyQueries } from '@app/resource-kit';
import { ReplicaSet } from '../database/replica-set';
import { ResourceDomains } from '../domains/resource-domains';
import { routeOf } from '../logging/request-log.middleware';
import { RequestSeries } from './request-series';

const STARTED = Symbol('metrics:started');

type TimedResponse = Response & { [STARTED]: number };

/**
 * The service's Prometheus metrics, in a registry of its own: requests by domain, route
 * template, method and status, their latency, the PostgreSQL pool (read at scrape time), the process.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  constructor(
    dataSource: DataSource,
    replicas: ReplicaSet,
    costlyQueries: CostlyQueries,
    private readonly domains: ResourceDomains,
  ) {
    collectDefaultMetrics({ register: this.registry });
    if (dataSource.options.type === 'postgres') this.watchPool(dataSource);
    if (replicas.states.length > 0) this.watchReplicas(replicas);
    this.watchCostlyQueries(costlyQueries);
  }

  // Why costly lists were refused (SPEC 1.6): their bound was full, or one ran out of time.
  private watchCostlyQueries({ refused }: CostlyQueries): void {
    new Counter({
      name: 'costly_queries_refused_total',
      help: 'Costly lists answered 503, by reason: busy (the bound was full) or timed_out (stopped by its statement timeout)',
      labelNames: ['reason'],
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc({ reason: 'busy' }, refused.busy);
        this.inc({ reason: 'timed_out' }, refused.timedOut);
      },
    });
  }

  /** Express middleware: times each request and counts it when it ends. */
  readonly observe = this.observer();

  private observer() {
    const series = new RequestSeries(
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      (route) => this.domains.ofRoute(route),
    );
    const metrics = [
      series.counter(
        'http_requests_total',
        'HTTP requests answered, by domain, route template, method and status',
      ),
      series.histogram(
        'http_request_duration_seconds',
        'Time from the request to the end of the answer, by domain, route template, method and status',
      ),
    ];
    // prom-client's registry reads any object with a name and get(); its types want a class.
    for (const metric of metrics) this.registry.registerMetric(metric as unknown as Metric);
    // One listener function for every response: no closure per request.
    function record(this: TimedResponse): void {
      const seconds = (performance.now() - this[STARTED]) / 1000;
      series.record(routeOf(this.req), this.req.method, this.statusCode, seconds);
    }
    return (_request: Request, response: Response, next: NextFunction): void => {
      (response as TimedResponse)[STARTED] = performance.now();
      response.on('close', record);
      next();
    };
  }

  private watchReplicas(replicas: ReplicaSet): void {
    const registers = [this.registry];
    const labelNames = ['replica'];
    new Gauge({
      name: 'db_replica_lag_seconds',
      help: 'Replay lag of each read replica at its last probe (-1 while unreachable)',
      labelNames,
      registers,
      collect() {
        for (const { name, lagSeconds } of replicas.states) this.set({ replica: name }, lagSeconds);
      },
    });
    new Gauge({
      name: 'db_replica_healthy',
      help: 'Whether each read replica takes reads (1) or is left out (0)',
      labelNames,
      registers,
      collect() {
        for (const { name, healthy } of replicas.states)
          this.set({ replica: name }, Number(healthy));
      },
    });
  }

  private watchPool(dataSource: DataSource): void {
    // TypeORM's PostgreSQL driver keeps its pg pool as `master`, created at connect.
    const pool = () => (dataSource.driver as unknown as { master?: Pool }).master;
    const gauge = (name: string, help: string, read: (pool: Pool) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const current = pool();
          if (current) this.set(read(current));
        },
      });
    gauge('db_pool_connections', 'PostgreSQL connections open in the pool', (p) => p.totalCount);
    gauge(
      'db_pool_idle_connections',
      'PostgreSQL connections idle in the pool',
      (p) => p.idleCount,
    );
    gauge(
      'db_pool_waiting_clients',
      'Queries waiting for a pool connection',
      (p) => p.waitingCount,
    );
  }
}
