import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { freePort, HAPROXY, runningAsRoot, SERVER_USER, serverDirectory } from './local-servers';
import { scaledMs } from './machine-load';
import { hasPostgresServer, POSTGRES_BIN } from './postgres-cluster';

const DEPLOY = join(__dirname, '..', '..', 'deploy', 'patroni');
const PROGRAMS = {
  patroni: '/usr/bin/patroni',
  etcd: '/usr/bin/etcd',
};
export const PATRONI_INSTALL = 'apt-get install patroni etcd-server haproxy postgresql-15';
const SUPERUSER_PASSWORD = 'failover-spec-superuser-Zq8';
const DATABASE = 'patroni_failover_spec';
const REPLICATION_PASSWORD = 'failover-spec-replication-Lm3';

/** Whether Patroni, etcd, HAProxy and PostgreSQL's server programs are all installed. */
export function hasPatroni(): boolean {
  return (
    existsSync(PROGRAMS.patroni) &&
    existsSync(PROGRAMS.etcd) &&
    HAPROXY !== undefined &&
    hasPostgresServer()
  );
}

export interface PatroniMember {
  readonly name: string;
  /** This member's PostgreSQL, straight (for reads and for counting rows). */
  readonly url: string;
  /** What Patroni's REST API says of it: `primary`, `replica`, or undefined when it cannot. */
  role(): Promise<string | undefined>;
  /** Kills its postmaster with SIGKILL, as a crash would: Patroni itself keeps running. */
  crash(): void;
}

export interface PatroniCluster {
  readonly members: readonly PatroniMember[];
  /** HAProxy's primary listener (deploy/patroni/haproxy.cfg): the current leader. */
  readonly primaryUrl: string;
  /** The member Patroni says is the primary now, if one is. */
  primary(): Promise<PatroniMember | undefined>;
  /** Stops everything this cluster started and removes its files. */
  remove(): Promise<void>;
}

/**
 * etcd, three PostgreSQL members under Patroni with the shipped deploy/patroni/patroni.yml,
 * and HAProxy with the shipped deploy/patroni/haproxy.cfg, for one spec: in a temporary
 * directory, on free ports of 127.0.0.1, Patroni and PostgreSQL as the `postgres` OS user
 * when the tests run as root. Resolves once a primary and two streaming standbys answer.
 */
export async function startPatroniCluster(): Promise<PatroniCluster> {
  const directory = serverDirectory('patroni-');
  const started: ChildProcess[] = [];
  const log = (name: string) => openSync(join(directory, `${name}.log`), 'a');
  const launch = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv) => {
    // Its own process group: stopping it stops what it started (PostgreSQL under Patroni).
    const child = spawn(command, args, {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', log(name), log(name)],
      detached: true,
    });
    started.push(child);
    return child;
  };
  const remove = async () => {
    await stopAll(started);
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    const [etcdPort, peerPort] = [await freePort(), await freePort()];
    const peer = `http://127.0.0.1:${peerPort}`;
    launch(
      'etcd',
      PROGRAMS.etcd,
      [
        '--name=etcd1',
        `--data-dir=${join(directory, 'etcd')}`,
        `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
        `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
        `--listen-peer-urls=${peer}`,
        `--initial-advertise-peer-urls=${peer}`,
        `--initial-cluster=etcd1=${peer}`,
        '--initial-cluster-state=new',
      ],
      {},
    );
    const config = join(directory, 'patroni.yml');
    writeFileSync(config, throwawayConfig(readFileSync(join(DEPLOY, 'patroni.yml'), 'utf8')));
    const members: (PatroniMember & { pgAddress: string; apiPort: number })[] = [];
    for (const name of ['pg1', 'pg2', 'pg3']) {
      const [pgPort, apiPort] = [await freePort(), await freePort()];
      const dataDir = join(directory, name);
      const asServerUser = runningAsRoot() ? ['runuser', '-u', SERVER_USER, '--'] : [];
      const [command, ...args] = [...asServerUser, PROGRAMS.patroni, config];
      launch(name, command, args, {
        PATRONI_SCOPE: 'shop',
        PATRONI_NAME: name,
        PATRONI_ETCD3_HOSTS: `127.0.0.1:${etcdPort}`,
        PATRONI_RESTAPI_LISTEN: `127.0.0.1:${apiPort}`,
        PATRONI_RESTAPI_CONNECT_ADDRESS: `127.0.0.1:${apiPort}`,
        PATRONI_POSTGRESQL_LISTEN: `127.0.0.1:${pgPort}`,
        PATRONI_POSTGRESQL_CONNECT_ADDRESS: `127.0.0.1:${pgPort}`,
        PATRONI_POSTGRESQL_DATA_DIR: dataDir,
        PATRONI_POSTGRESQL_BIN_DIR: POSTGRES_BIN,
        PATRONI_SUPERUSER_PASSWORD: SUPERUSER_PASSWORD,
        PATRONI_REPLICATION_PASSWORD: REPLICATION_PASSWORD,
      });
      members.push({
        name,
        pgAddress: `127.0.0.1:${pgPort}`,
        apiPort,
        url: `postgres://postgres:${SUPERUSER_PASSWORD}@127.0.0.1:${pgPort}/${DATABASE}`,
        role: () => roleOf(apiPort),
        crash: () => process.kill(postmasterPid(dataDir), 'SIGKILL'),
      });
    }
    const gatewayPort = await freePort();
    launch('haproxy', HAPROXY!, ['-db', '-f', join(DEPLOY, 'haproxy.cfg')], {
      PG_PRIMARY_BIND: `127.0.0.1:${gatewayPort}`,
      ...Object.fromEntries(
        members.flatMap((member, at) => [
          [`PG_${at + 1}`, member.pgAddress],
          [`PATRONI_${at + 1}_HOST`, '127.0.0.1'],
          [`PATRONI_${at + 1}_PORT`, String(member.apiPort)],
        ]),
      ),
    });
    const cluster: PatroniCluster = {
      members,
      primaryUrl: `postgres://postgres:${SUPERUSER_PASSWORD}@127.0.0.1:${gatewayPort}/${DATABASE}`,
      primary: async () => {
        const roles = await Promise.all(members.map((member) => member.role()));
        return members.find((_, at) => roles[at] === 'primary');
      },
      remove,
    };
    await until(async () => {
      const roles = await Promise.all(members.map((member) => member.role()));
      return roles.filter((role) => role === 'primary').length === 1 &&
        roles.filter((role) => role === 'replica').length === 2
        ? true
        : undefined;
    }, scaledMs(120_000));
    // A database of this cluster's own: a PostgreSQL of another spec that takes a member's
    // port while that member is down (ports are picked free, then bound) has none, so the
    // service's probe leaves it out rather than reading another spec's tables there.
    const leader = (await cluster.primary())!;
    const admin = new Client({ connectionString: leader.url.replace(/\/\w+$/, '/postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`).finally(() => admin.end());
    return cluster;
  } catch (error) {
    const logs = ['etcd', 'pg1', 'pg2', 'pg3', 'haproxy']
      .map((name) => `--- ${name}\n${tail(join(directory, `${name}.log`))}`)
      .join('\n');
    await remove();
    throw new Error(`the Patroni cluster did not come up: ${(error as Error).message}\n${logs}`);
  }
}

/**
 * The shipped configuration, with what is only safe for files thrown away: initdb skips its
 * fsync of the new cluster, and PostgreSQL runs with fsync off. Beside the suite's other
 * PostgreSQL work, each fsync waited on the disk's whole queue: a bootstrap took minutes
 * instead of seconds. A member's crash in the spec is its postmaster's (SIGKILL), not the
 * machine's: what it wrote is in the page cache either way, so the spec asserts the same.
 */
function throwawayConfig(shipped: string): string {
  const patched = shipped
    .replace('\n    - data-checksums\n', '\n    - data-checksums\n    - no-sync\n')
    .replace(
      '\n    password_encryption: scram-sha-256\n',
      "\n    password_encryption: scram-sha-256\n    fsync: 'off'\n",
    );
  if (!patched.includes('- no-sync') || !patched.includes("fsync: 'off'")) {
    throw new Error('deploy/patroni/patroni.yml changed: update throwawayConfig to match it');
  }
  return patched;
}

// Patroni's GET / describes the member; a replica is `running` once it streams.
async function roleOf(apiPort: number): Promise<string | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${apiPort}/`, {
      signal: AbortSignal.timeout(1_000),
    });
    const { role, state } = (await response.json()) as { role?: string; state?: string };
    if (state !== 'running') return undefined;
    return role === 'master' ? 'primary' : role;
  } catch {
    return undefined;
  }
}

function postmasterPid(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** Polls `check` until it gives a value, or fails after `withinMs`. */
export async function until<T>(check: () => Promise<T | undefined>, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms`);
    await sleep(250);
  }
}

// SIGTERM to each process group (Patroni stops its PostgreSQL), then SIGKILL to what is left.
async function stopAll(children: ChildProcess[]): Promise<void> {
  const signal = (child: ChildProcess, name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Gone already.
    }
  };
  const exited = children.map(
    (child) =>
      new Promise<void>((done) =>
        child.exitCode !== null || child.signalCode !== null
          ? done()
          : child.once('exit', () => done()),
      ),
  );
  for (const child of [...children].reverse()) signal(child, 'SIGTERM');
  const all = Promise.all(exited);
  if ((await Promise.race([all.then(() => true), sleep(20_000).then(() => false)])) === false) {
    for (const child of children) signal(child, 'SIGKILL');
    await all;
  }
}

function tail(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(-30).join('\n') : '';
}
