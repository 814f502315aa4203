// The floor of what Node can do: node:http and pg, no framework, the same answers as the
// service for the paths the bench loads (and the same work: auth, session check, writes).
process.env.TZ = 'UTC';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { verify } from 'jsonwebtoken';
import { Pool, PoolClient } from 'pg';
import { v7 as uuidv7 } from 'uuid';
import {
  adminProductWire,
  CartItemRow,
  cartItemWire,
  CartRow,
  cartWire,
  PageCursors,
  ProductRow,
  productProblems,
  productWire,
  SETTINGS,
} from '../shop.wire';
import { logger, logRequest } from '../request-log';

type Caller = { id: string; role: string };
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const pool = new Pool({
  connectionString: SETTINGS.databaseUrl,
  max: SETTINGS.pool.max,
  options: SETTINGS.sessionOptions,
});
const cursors = new PageCursors();
const admins = new Map<string, string>(); // static token -> user id

const PRODUCT = /^\/products\/([^/]+)$/;
const CART = /^\/carts\/([^/]+)$/;
const CART_ITEM = /^\/cart_items\/([^/]+)$/;

async function route(req: IncomingMessage, url: URL): Promise<[number, object]> {
  const { pathname } = url;
  let match: RegExpExecArray | null;
  if (req.method === 'GET' && pathname === '/products') return [200, await listProducts(url)];
  if (req.method === 'GET' && (match = PRODUCT.exec(pathname))) {
    const { rows } = await pool.query<ProductRow>('SELECT * FROM products WHERE id = $1', [
      match[1],
    ]);
    if (!rows[0]) throw new HttpError(404, `no products with id ${match[1]}`);
    return [200, { data: productWire(rows[0]) }];
  }
  if (req.method === 'POST' && pathname === '/products') {
    return [201, { data: adminProductWire(await createProduct(adminOf(req), await bodyOf(req))) }];
  }
  if (req.method === 'GET' && (match = CART.exec(pathname))) {
    const caller = await customerOf(req);
    const { rows } = await pool.query<CartRow>(
      'SELECT * FROM carts WHERE id = $1 AND user_id = $2',
      [match[1], caller.id],
    );
    if (!rows[0]) throw new HttpError(404, `no carts with id ${match[1]}`);
    return [200, { data: cartWire(rows[0]) }];
  }
  if (req.method === 'POST' && pathname === '/cart_items') {
    const caller = await customerOf(req);
    return [201, { data: cartItemWire(await createCartItem(caller, await bodyOf(req))) }];
  }
  if (req.method === 'DELETE' && (match = CART_ITEM.exec(pathname))) {
    const caller = await customerOf(req);
    return [200, { data: cartItemWire(await deleteCartItem(caller, match[1])) }];
  }
  throw new HttpError(404, `no route for ${req.method} ${pathname}`);
}

async function listProducts(url: URL): Promise<object> {
  const limit = Number(url.searchParams.get('limit') ?? SETTINGS.pageSize.default);
  const minPrice = url.searchParams.get('filter[price_cents][gte]');
  if (!Number.isInteger(limit) || limit < 1 || limit > SETTINGS.pageSize.max)
    throw new HttpError(400, 'limit must be an integer from 1 to 100');
  if (minPrice !== null && !/^\d+$/.test(minPrice))
    throw new HttpError(400, 'filter[price_cents][gte] must be an integer');
  const filters: [string, string][] =
    minPrice === null ? [] : [['filter[price_cents][gte]', minPrice]];
  const conditions: string[] = [];
  const values: unknown[] = [];
  if (minPrice !== null) {
    values.push(Number(minPrice));
    conditions.push(`price_cents >= $${values.length}`);
  }
  const cursor = url.searchParams.get('cursor');
  if (cursor !== null) {
    const after = cursors.decode(cursor, filters);
    if (!after) throw new HttpError(400, 'cursor is not a cursor this service issued');
    values.push(...after);
    conditions.push(`(created_at, id) > ($${values.length - 1}, $${values.length})`);
  }
  values.push(limit + 1);
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const { rows } = await pool.query<ProductRow>(
    `SELECT * FROM products ${where} ORDER BY created_at, id LIMIT $${values.length}`,
    values,
  );
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? cursors.encode(page[page.length - 1], filters) : null;
  return { data: page.map(productWire), cursor: next };
}

async function createProduct(caller: Caller, input: Record<string, unknown>): Promise<ProductRow> {
  const problems = productProblems(input);
  if (problems.length > 0) throw new HttpError(400, problems.join('; '));
  const now = new Date();
  const product: ProductRow = {
    id: uuidv7(),
    created_at: now,
    updated_at: now,
    name: input.name as string,
    description: (input.description as string | undefined) ?? null,
    price_cents: input.price_cents as number,
    currency: (input.currency as string | undefined) ?? 'EUR',
    stock: input.stock as number,
    cost_cents: (input.cost_cents as number | null | undefined) ?? null,
  };
  const { id, name, description, price_cents, currency, stock, cost_cents } = product;
  await inTransaction(async (client) => {
    await client.query(
      `INSERT INTO products (id, created_at, updated_at, name, description, price_cents, currency, stock, cost_cents)
       VALUES ($1, $2, $2, $3, $4, $5, $6, $7, $8)`,
      [id, now, name, description, price_cents, currency, stock, cost_cents],
    );
    await client.query(
      `INSERT INTO product_revisions (id, created_at, updated_at, product_id, revision, name, description, price_cents, currency, stock, cost_cents)
       VALUES ($1, $2, $2, $3, 1, $4, $5, $6, $7, $8, $9)`,
      [uuidv7(), now, id, name, description, price_cents, currency, stock, cost_cents],
    );
    await recordEvent(client, 'created', 'products', id, caller.id);
  });
  return product;
}

async function createCartItem(
  caller: Caller,
  input: Record<string, unknown>,
): Promise<CartItemRow> {
  const { cart_id: cartId, product_id: productId, quantity } = input;
  if (typeof cartId !== 'string' || typeof productId !== 'string')
    throw new HttpError(400, 'data.cart_id and data.product_id must be strings');
  if (!Number.isInteger(quantity) || (quantity as number) < 1 || (quantity as number) > 99)
    throw new HttpError(400, 'data.quantity must be an integer from 1 to 99');
  if (cartId !== caller.id) throw new HttpError(400, 'data.cart_id names no cart of yours');
  return inTransaction(async (client) => {
    const cart = await client.query<CartRow>('SELECT * FROM carts WHERE id = $1 FOR UPDATE', [
      cartId,
    ]);
    const taken = await client.query(
      'SELECT 1 FROM cart_items WHERE cart_id = $1 AND product_id = $2',
      [cartId, productId],
    );
    if (taken.rowCount) throw new HttpError(409, 'this product is already in the cart');
    const { rows } = await client.query<ProductRow>('SELECT * FROM products WHERE id = $1', [
      productId,
    ]);
    const product = rows[0];
    if (!product) throw new HttpError(400, 'data.product_id names no product');
    if ((quantity as number) > product.stock) throw new HttpError(409, 'not enough in stock');
    if (product.currency !== cart.rows[0]?.currency) throw new HttpError(409, 'currency differs');
    const now = new Date();
    const item: CartItemRow = {
      id: uuidv7(),
      created_at: now,
      updated_at: now,
      cart_id: cartId,
      product_id: productId,
      quantity: quantity as number,
      unit_price_cents: product.price_cents,
      line_total_cents: product.price_cents * (quantity as number),
    };
    await client.query(
      `INSERT INTO cart_items (id, created_at, updated_at, cart_id, product_id, quantity, unit_price_cents, line_total_cents)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      Object.values(item),
    );
    await recalculateCart(client, cartId);
    await recordEvent(client, 'created', 'cart_items', item.id, caller.id);
    return item;
  });
}

async function deleteCartItem(caller: Caller, id: string): Promise<CartItemRow> {
  return inTransaction(async (client) => {
    const { rows } = await client.query<CartItemRow>(
      'SELECT * FROM cart_items WHERE id = $1 AND cart_id = $2 FOR UPDATE',
      [id, caller.id],
    );
    if (!rows[0]) throw new HttpError(404, `no cart_items with id ${id}`);
    await client.query('SELECT 1 FROM carts WHERE id = $1 FOR UPDATE', [rows[0].cart_id]);
    await client.query('DELETE FROM cart_items WHERE id = $1', [id]);
    await recalculateCart(client, rows[0].cart_id);
    await recordEvent(client, 'deleted', 'cart_items', id, caller.id);
    return rows[0];
  });
}

async function recalculateCart(client: PoolClient, cartId: string): Promise<void> {
  await client.query(
    `UPDATE carts SET subtotal_cents = totals.subtotal, item_count = totals.count, updated_at = $2
     FROM (SELECT COALESCE(SUM(line_total_cents), 0) AS subtotal, COALESCE(SUM(quantity), 0) AS count
           FROM cart_items WHERE cart_id = $1) AS totals
     WHERE id = $1`,
    [cartId, new Date()],
  );
}

async function recordEvent(
  client: PoolClient,
  action: string,
  type: string,
  id: string,
  userId: string,
) {
  const now = new Date();
  await client.query(
    `INSERT INTO events (id, created_at, updated_at, action, subject_type, subject_id, user_id, occurred_at)
     VALUES ($1, $2, $2, $3, $4, $5, $6, $2)`,
    [uuidv7(), now, action, type, id, userId],
  );
}

async function inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

function bearerOf(req: IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Bearer ')) throw new HttpError(401, 'a bearer token is required');
  return header.slice(7);
}

function adminOf(req: IncomingMessage): Caller {
  const given = Buffer.from(bearerOf(req));
  for (const [token, id] of admins) {
    const known = Buffer.from(token);
    if (known.length === given.length && timingSafeEqual(known, given))
      return { id, role: 'admin' };
  }
  throw new HttpError(401, 'the bearer token is invalid, expired or revoked');
}

// The whole session path: the JWT, then the session row and its user's role, as the service does.
async function customerOf(req: IncomingMessage): Promise<Caller> {
  let claims: { sub: string; sid: string };
  try {
    claims = verify(bearerOf(req), SETTINGS.jwtSecret, SETTINGS.jwt) as typeof claims;
  } catch {
    throw new HttpError(401, 'the bearer token is invalid, expired or revoked');
  }
  const { rows } = await pool.query<{ role: string }>(
    `SELECT u.role FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id = $1 AND s.user_id = $2 AND s.expires_at > now()`,
    [claims.sid, claims.sub],
  );
  if (!rows[0]) throw new HttpError(401, 'the bearer token is invalid, expired or revoked');
  return { id: claims.sub, role: rows[0].role };
}

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const { data } = JSON.parse(Buffer.concat(chunks).toString()) as { data?: unknown };
    if (typeof data === 'object' && data !== null && !Array.isArray(data))
      return data as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new HttpError(400, 'the body must be a JSON object with one member, data');
}

function send(res: ServerResponse, status: number, body: object): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
}

async function main(): Promise<void> {
  for (const { token, email } of SETTINGS.adminTokens) {
    const { rows } = await pool.query<{ id: string }>('SELECT id FROM users WHERE email_key = $1', [
      email.toLowerCase(),
    ]);
    if (rows[0]) admins.set(token, rows[0].id);
  }
  const server = createServer((req, res) => {
    logRequest(req, res);
    route(req, new URL(req.url ?? '/', 'http://localhost')).then(
      ([status, body]) => send(res, status, body),
      (error: unknown) => {
        if (error instanceof HttpError) return send(res, error.status, { error: [error.message] });
        logger.error(error);
        send(res, 500, { error: ['internal server error'] });
      },
    );
  });
  server.listen(SETTINGS.port);
  process.on('SIGTERM', () => server.close(() => void pool.end()));
}

void main();
