import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, runningAsRoot, SERVER_USER, serverDirectory } from './local-servers';

const run = promisify(execFile);

/** Debian's PostgreSQL 15 server programs (initdb, pg_ctl, pg_basebackup). */
export const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
export const POSTGRES_INSTALL = 'apt-get install postgresql-15';

export function hasPostgresServer(): boolean {
  return ['initdb', 'pg_ctl', 'pg_basebackup'].every((name) =>
    existsSync(join(POSTGRES_BIN, name)),
  );
}

export interface PostgresServer {
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface PrimaryAndStandby {
  readonly primary: PostgresServer;
  readonly standby: PostgresServer;
  /** Stops both servers and removes their files. */
  remove(): Promise<void>;
}

/**
 * A PostgreSQL primary and a hot standby streaming from it, made for one spec: `initdb` and
 * `pg_basebackup` into a temporary directory, each on a free port of 127.0.0.1 with trust
 * authentication, run as the `postgres` OS user when the tests run as root (PostgreSQL
 * refuses root). fsync is off: the files are thrown away.
 */
export async function startPrimaryAndStandby(): Promise<PrimaryAndStandby> {
  const directory = serverDirectory('pg-cluster-');
  const as = (program: string, args: string[]) =>
    runningAsRoot()
      ? run('runuser', ['-u', SERVER_USER, '--', join(POSTGRES_BIN, program), ...args])
      : run(join(POSTGRES_BIN, program), args);
  const server = (name: string, port: number): PostgresServer => {
    const data = join(directory, name);
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${directory} -c fsync=off`;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      start: async () => {
        await as('pg_ctl', ['-D', data, '-l', `${data}.log`, '-o', options, '-w', 'start']);
      },
      stop: async () => {
        await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
      },
    };
  };
  const primary = server('primary', await freePort());
  const standby = server('standby', await freePort());
  const remove = async () => {
    await Promise.all([primary.stop(), standby.stop()]);
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    await as('initdb', [
      '-D',
      join(directory, 'primary'),
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
    await primary.start();
    const { port } = new URL(primary.url);
    // -R writes the standby's connection to the primary; the copy starts as a hot standby.
    await as('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      port,
      '-U',
      'postgres',
      '-D',
      join(directory, 'standby'),
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ]);
    await standby.start();
  } catch (error) {
    await remove();
    throw error;
  }
  return { primary, standby, remove };
}
