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

/**
 * A TCP port of 127.0.0.1 nothing listens on right now, for a server that binds it later (a
 * PostgreSQL after its initdb, seconds on): picked below the kernel's ephemeral range, from
 * which every `listen(0)` and every outgoing connection of the suite take theirs, so that
 * none of those can take it in between.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = PICKED_PORTS.from + Math.floor(Math.random() * PICKED_PORTS.count);
    if (await bindable(port)) return port;
  }
}

// The 10,000 ports below the ephemeral range (net.ipv4.ip_local_port_range: 32768 by default).
const PICKED_PORTS = (() => {
  const range = '/proc/sys/net/ipv4/ip_local_port_range';
  const ephemeral = existsSync(range) ? Number(readFileSync(range, 'utf8').split(/\s+/)[0]) : 32768;
  return { from: Math.max(1024, ephemeral - 10_000), count: Math.min(10_000, ephemeral - 1024) };
})();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function uidOf(user: string): number {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${user}:`));
  if (!line) throw new Error(`no ${user} user to run the test servers as (they refuse root)`);
  return Number(line.split(':')[2]);
}
