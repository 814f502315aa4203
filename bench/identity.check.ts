import { BENCH } from './bench.config';
import type { Fixtures } from './fixtures';

interface Request {
  method: string;
  path: string;
  token?: string;
  body?: object;
}

interface Probe extends Request {
  scenario: string;
  /** A request made right after, on the same server; `{created}` is the new resource's id. */
  then?: Request;
}

const FRESH = /"(id|created_at|updated_at)":"[^"]*"/g;

/** A server the identity check asks: the service first. */
export interface AskedServer {
  url: string;
  serves: (scenario: string) => boolean;
}

/**
 * Asks every server the same sample of requests, one server after another, and fails unless
 * each answers the service's status and exact bytes (for the scenarios it serves). The S6
 * probe adds a cart item and deletes it again; S3 adds one product per server.
 */
export async function assertSameAnswers(
  servers: AskedServer[],
  fixtures: Fixtures,
): Promise<number> {
  const probes = await probesFor(servers[0].url, fixtures);
  for (const probe of probes) {
    const [expected, ...others] = servers.filter((server) => server.serves(probe.scenario));
    const answer = await answersOf(expected.url, probe);
    for (const { url } of others) {
      const actual = await answersOf(url, probe);
      if (actual !== answer) {
        throw new Error(
          `${probe.scenario} ${probe.method} ${probe.path}: ${url} answers\n  ${actual}\nwhere the service answers\n  ${answer}`,
        );
      }
    }
  }
  return probes.length;
}

async function probesFor(serviceUrl: string, fixtures: Fixtures): Promise<Probe[]> {
  const customer = fixtures.customers[0];
  const page = '/products?limit=25';
  const filtered = `${page}&filter[price_cents][gte]=90000`;
  const nextPage = async (path: string) => {
    const { cursor } = (await (await fetch(serviceUrl + path)).json()) as { cursor: string };
    return `${path}&cursor=${encodeURIComponent(cursor)}`;
  };
  const cart = { method: 'GET', path: `/carts/${customer.userId}`, token: customer.token };
  return [
    ...fixtures.productIds
      .slice(0, 20)
      .map((id) => ({ scenario: 'S1', method: 'GET', path: `/products/${id}` })),
    ...[page, await nextPage(page)].map((path) => ({ scenario: 'S2', method: 'GET', path })),
    ...[filtered, await nextPage(filtered)].map((path) => ({
      scenario: 'S2f',
      method: 'GET',
      path,
    })),
    { scenario: 'S5', ...cart },
    {
      scenario: 'S6',
      method: 'POST',
      path: '/cart_items',
      token: customer.token,
      body: { cart_id: customer.userId, product_id: customer.productIds[0], quantity: 2 },
      then: { method: 'DELETE', path: '/cart_items/{created}', token: customer.token },
    },
    {
      scenario: 'S3',
      method: 'POST',
      path: '/products',
      token: BENCH.admin.token,
      body: { name: 'Identity probe', description: null, price_cents: 1250, stock: 3 },
    },
  ];
}

async function answersOf(url: string, probe: Probe): Promise<string> {
  const { status, text } = await send(url, probe);
  const first = `${status} ${masked(probe, text)}`;
  if (!probe.then) return first;
  const created = /"id":"([^"]+)"/.exec(text)?.[1] ?? '';
  const then = { ...probe.then, path: probe.then.path.replace('{created}', created) };
  const next = await send(url, then);
  return `${first}\n  then ${next.status} ${masked(then, next.text)}`;
}

async function send(url: string, request: Request): Promise<{ status: number; text: string }> {
  const response = await fetch(url + request.path, {
    method: request.method,
    headers: {
      ...(request.token ? { Authorization: `Bearer ${request.token}` } : {}),
      ...(request.body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: request.body ? JSON.stringify({ data: request.body }) : undefined,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, text: await response.text() };
}

// A written resource differs only in its fresh id and times.
function masked(request: Request, text: string): string {
  return request.method === 'GET' ? text : text.replace(FRESH, '"$1":"…"');
}
