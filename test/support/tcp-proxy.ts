import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on a port of this machine that a spec can cut (every connection ends, new ones
 * are refused) and open again on the same port, as a network outage would.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  port = 0;

  private constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  static async open(host: string, port: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(host, port);
    await proxy.reopen();
    return proxy;
  }

  get open(): boolean {
    return this.server?.listening ?? false;
  }

  /** Listens again, on the port it had before. */
  reopen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    return new Promise((resolve) =>
      server.listen(this.port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      }),
    );
  }

  cut(): Promise<void> {
    return new Promise((resolve) => {
      for (const socket of this.sockets) socket.destroy();
      if (!this.server?.listening) return resolve();
      this.server.close(() => resolve());
    });
  }
}
