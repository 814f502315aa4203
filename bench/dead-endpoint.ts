import { createServer, type AddressInfo, type Socket } from 'node:net';
import { BENCH } from './bench.config';

type EndpointStatus = 'active' | 'disabled';

/**
 * A webhook endpoint for every event whose receiver takes each connection and never answers
 * (SPEC 1.17: it must slow no write): each attempt holds its slot until WEBHOOK_TIMEOUT_MS.
 * `--webhooks` measures writes with it active against it disabled; `--profile S3 --webhooks`
 * profiles the service with it active.
 */
export const deadEndpoint = {
  /** The service's settings that let it deliver to a plain-http loopback receiver. */
  env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },

  /** The receiver, and the endpoint created for it through the API, as an administrator would. */
  async subscribe(serviceUrl: string) {
    const receiver = await startSilentReceiver();
    try {
      const { id } = await call(serviceUrl, 'POST', '/webhook_endpoints', { url: receiver.url });
      return {
        set: async (status: EndpointStatus) => {
          await call(serviceUrl, 'PATCH', `/webhook_endpoints/${id}`, { status });
        },
        close: receiver.close,
      };
    } catch (error) {
      receiver.close();
      throw error;
    }
  },
};

async function startSilentReceiver(): Promise<{ url: string; close: () => void }> {
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => {
    sockets.add(socket.on('close', () => sockets.delete(socket)).on('error', () => undefined));
  });
  await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
  const { port } = silent.address() as AddressInfo;
  const close = () => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  };
  return { url: `http://127.0.0.1:${port}/hooks`, close };
}

async function call(serviceUrl: string, method: string, path: string, data: object) {
  const response = await fetch(`${serviceUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${BENCH.admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data }),
  });
  const answer = (await response.json()) as { data?: { id: string } };
  if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(answer)}`);
  return answer.data!;
}
