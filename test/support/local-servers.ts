import { chownSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The servers the specs run themselves (PostgreSQL, PgBouncer) refuse root: they run as this user. */
export const SERVER_USER = 'postgres';

/** Debian's HAProxy, where it is installed (the gateway and failover specs run it). */
export const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((path) => existsSync(path));

/** Whether the tests run as root, so that those servers must run as SERVER_USER. */
export const runningAsRoot = (): boolean => process.getuid?.() === 0;

/** A temporary directory for such a server's files, owned by SERVER_USER when run as root. */
export function serverDirectory(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  if (runningAsRoot()) chownSync(directory, uidOf(SERVER_USER), -1);
  return directory;
}

/** A TCP port of 127.0.0.1 nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function uidOf(user: string): number {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${user}:`));
  if (!line) throw new Error(`no ${user} user to run the test servers as (they refuse root)`);
  return Number(line.split(':')[2]);
}
