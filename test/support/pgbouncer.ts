import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, runningAsRoot, SERVER_USER, serverDirectory } from './local-servers';

export const PGBOUNCER_INSTALL = 'apt-get install pgbouncer';

/** PgBouncer's binary: PGBOUNCER_BIN, Debian's path, or undefined when it is not installed. */
export function pgbouncerBinary(): string | undefined {
  return [process.env.PGBOUNCER_BIN, '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find(
    (path): path is string => !!path && existsSync(path),
  );
}

export interface RunningPgBouncer {
  /** The upstream's URL with the pooler's host and port. */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * A PgBouncer of the tests' own in front of `upstreamUrl`, in transaction mode (each
 * transaction may get another server connection), with no startup parameter ignored: a
 * client that sends one beyond the standard ones is refused, as in production. It runs in a
 * temporary directory on a free port, as the `postgres` OS user when the tests run as root
 * (PgBouncer refuses root), and is removed by `stop()`.
 */
export async function startPgBouncer(upstreamUrl: string): Promise<RunningPgBouncer> {
  const binary = pgbouncerBinary();
  if (!binary) throw new Error(`PgBouncer is not installed: ${PGBOUNCER_INSTALL}`);
  const upstream = new URL(upstreamUrl);
  const directory = serverDirectory('pgbouncer-');
  const port = await freePort();
  const log = join(directory, 'pgbouncer.log');
  writeFileSync(
    join(directory, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${upstream.hostname} port=${upstream.port || 5432} user=${decodeURIComponent(upstream.username) || 'postgres'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      // Trusted loopback tests: every client logs in as the upstream's user.
      'auth_type = any',
      'pool_mode = transaction',
      'max_client_conn = 2000',
      'default_pool_size = 40',
      `logfile = ${log}`,
    ].join('\n') + '\n',
  );
  const asUser = runningAsRoot() ? ['-u', SERVER_USER] : [];
  const args = [...asUser, join(directory, 'pgbouncer.ini')];
  const child = spawn(binary, args, { stdio: 'ignore' });
  try {
    await listening(port, child, log);
  } catch (error) {
    child.kill('SIGTERM');
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const url = new URL(upstreamUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // SIGTERM: PgBouncer 1.18 shuts down at once, closing its connections.
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(5_000, undefined, { ref: false })]);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

async function listening(port: number, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await accepts(port)) return;
    await sleep(50);
  }
  const said = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-3) : [];
  throw new Error(`PgBouncer did not start on port ${port}: ${said.join(' | ')}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(false);
    });
  });
}
