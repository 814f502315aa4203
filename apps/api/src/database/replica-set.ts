import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { ReadReplicas } from '@app/resource-kit';
import { DataSource, DataSourceOptions, EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

// How often each replica's health and replay lag are read.
const PROBE_MS = 1_000;
// A replica's replay lag in seconds: 0 when it has replayed all it received (an idle primary
// sends nothing, and the last replay's age would grow forever), else the last replay's age.
const LAG_SQL = `SELECT CASE
  WHEN NOT pg_is_in_recovery() OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
  ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)
END AS lag`;

export interface ReplicaState {
  /** The replica's host and port, for logs and metrics (never its credentials). */
  readonly name: string;
  healthy: boolean;
  /** Replay lag in seconds at the last probe; -1 while unreachable. */
  lagSeconds: number;
}

interface Replica extends ReplicaState {
  readonly dataSource: DataSource;
}

/**
 * The hot standbys of DATABASE_REPLICA_URLS (SPEC 1.13), each with a pool of its own. A
 * replica is used while its probe answers and its replay lag stays within
 * DATABASE_REPLICA_MAX_LAG_MS; a read that cannot reach it takes it out at once (the kit
 * runs that read again on the primary), and the next good probe takes it back. A replica
 * down at start does not stop the service: its probe keeps trying.
 */
@Injectable()
export class ReplicaSet implements ReadReplicas, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Replicas');
  private readonly replicas: Replica[];
  private readonly maxLagSeconds: number;
  private next = 0;
  private timer?: NodeJS.Timeout;

  constructor(primary: DataSource, @Inject(APP_CONFIG) config: AppConfig) {
    const { database } = config;
    const urls = database.type === 'postgres' ? database.replicas.urls : [];
    this.maxLagSeconds = database.type === 'postgres' ? database.replicas.maxLagMs / 1000 : 0;
    this.replicas = urls.map((url) => ({
      name: new URL(url).host,
      healthy: false,
      lagSeconds: -1,
      dataSource: new DataSource(replicaOptions(primary, url)),
    }));
  }

  /** Each replica's health and lag, for /metrics. */
  get states(): readonly ReplicaState[] {
    return this.replicas;
  }

  pick(): EntityManager | undefined {
    for (let tried = 0; tried < this.replicas.length; tried++) {
      const replica = this.replicas[this.next++ % this.replicas.length];
      if (replica.healthy) return replica.dataSource.manager;
    }
    return undefined;
  }

  unreachable(manager: EntityManager): void {
    const replica = this.replicas.find((candidate) => candidate.dataSource === manager.connection);
    if (replica) this.markDown(replica, 'a read could not reach it');
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.replicas.length === 0) return;
    // The first probe before the service listens, so that healthy replicas serve from the start.
    await this.probeAll();
    this.timer = setInterval(() => void this.probeAll(), PROBE_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(
      this.replicas
        .filter(({ dataSource }) => dataSource.isInitialized)
        .map(({ dataSource }) => dataSource.destroy()),
    );
  }

  private async probeAll(): Promise<void> {
    await Promise.all(this.replicas.map((replica) => this.probe(replica)));
  }

  private async probe(replica: Replica): Promise<void> {
    try {
      if (!replica.dataSource.isInitialized) await replica.dataSource.initialize();
      const [{ lag }] = await replica.dataSource.query<{ lag: string | number }[]>(LAG_SQL);
      replica.lagSeconds = Number(lag);
    } catch (error) {
      return this.markDown(replica, (error as Error).message);
    }
    const healthy = replica.lagSeconds <= this.maxLagSeconds;
    if (healthy !== replica.healthy) {
      this.logger.warn(
        healthy
          ? { event: 'replica_up', replica: replica.name, lag_seconds: replica.lagSeconds }
          : { event: 'replica_lagging', replica: replica.name, lag_seconds: replica.lagSeconds },
      );
    }
    replica.healthy = healthy;
  }

  private markDown(replica: Replica, reason: string): void {
    if (replica.healthy) this.logger.warn({ event: 'replica_down', replica: replica.name, reason });
    replica.healthy = false;
    replica.lagSeconds = -1;
  }
}

// The primary's settings (session options, pool size, timeouts) and entities on the replica's
// URL: no migrations (a standby is read only) and no extensions to install.
function replicaOptions(primary: DataSource, url: string): DataSourceOptions {
  return {
    ...(primary.options as Extract<DataSourceOptions, { type: 'postgres' }>),
    url,
    entities: primary.entityMetadatas.map((metadata) => metadata.target),
    migrations: [],
    migrationsRun: false,
    installExtensions: false,
  };
}
