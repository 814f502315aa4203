// The service's wire form, written out by hand for the two baselines: member order, time
// format and cursors exactly as the service answers, so the bench can compare bytes.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface ProductRow {
  id: string;
  created_at: Date;
  updated_at: Date;
  name: string;
  description: string | null;
  price_cents: number;
  currency: string;
  stock: number;
  /** Read and written by administrators only (SPEC 1.16). */
  cost_cents: number | null;
}

export interface CartRow {
  id: string;
  created_at: Date;
  updated_at: Date;
  user_id: string;
  subtotal_cents: number;
  item_count: number;
  currency: string;
}

export interface CartItemRow {
  id: string;
  created_at: Date;
  updated_at: Date;
  cart_id: string;
  product_id: string;
  quantity: number;
  unit_price_cents: number;
  line_total_cents: number;
}

/** What every baseline reads from the environment the bench gives all servers. */
export const SETTINGS = {
  port: Number(process.env.PORT ?? 3000),
  databaseUrl: process.env.DATABASE_URL!,
  schema: process.env.DATABASE_SCHEMA ?? 'public',
  jwtSecret: process.env.JWT_SECRET!,
  logLevel: process.env.LOG_LEVEL ?? 'info',
  adminTokens: (
    JSON.parse(process.env.STATIC_TOKENS ?? '[]') as { token: string; email: string }[]
  ).map(({ token, email }) => ({ token, email })),
  // The service's pool size and session options.
  pool: { max: 10 },
  sessionOptions: `-c timezone=UTC -c search_path=${process.env.DATABASE_SCHEMA ?? 'public'}`,
  jwt: { algorithms: ['HS256' as const], issuer: 'shop-api', audience: 'shop-api' },
  pageSize: { default: 25, max: 100 },
};

export function wireTime(value: Date): string {
  return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function productWire(row: ProductRow): object {
  return {
    type: 'products',
    id: row.id,
    created_at: wireTime(row.created_at),
    updated_at: wireTime(row.updated_at),
    name: row.name,
    description: row.description,
    price_cents: row.price_cents,
    currency: row.currency,
    stock: row.stock,
  };
}

/** A product as an administrator reads it: with the members only administrators read. */
export function adminProductWire(row: ProductRow): object {
  return { ...productWire(row), cost_cents: row.cost_cents };
}

/** What the service answers 400 for in a product's create: each problem, in its order. */
export function productProblems(input: Record<string, unknown>): string[] {
  const { name, description, price_cents, currency, stock, cost_cents } = input;
  const problems: string[] = [];
  if (typeof name !== 'string' || name.length < 1 || name.length > 200)
    problems.push('data.name must be a string of 1 to 200 characters');
  if (description != null && (typeof description !== 'string' || description.length > 2000))
    problems.push('data.description must be a string of at most 2000 characters');
  if (!Number.isInteger(price_cents) || (price_cents as number) < 0)
    problems.push('data.price_cents must be an integer of at least 0');
  if (!Number.isInteger(stock) || (stock as number) < 0)
    problems.push('data.stock must be an integer of at least 0');
  if (currency !== undefined && (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)))
    problems.push('data.currency must be a currency code');
  if (cost_cents != null && (!Number.isInteger(cost_cents) || (cost_cents as number) < 0))
    problems.push('data.cost_cents must be an integer of at least 0');
  return problems;
}

export function cartWire(row: CartRow): object {
  return {
    type: 'carts',
    id: row.id,
    created_at: wireTime(row.created_at),
    updated_at: wireTime(row.updated_at),
    user_id: row.user_id,
    subtotal_cents: row.subtotal_cents,
    item_count: row.item_count,
    currency: row.currency,
  };
}

export function cartItemWire(row: CartItemRow): object {
  return {
    type: 'cart_items',
    id: row.id,
    created_at: wireTime(row.created_at),
    updated_at: wireTime(row.updated_at),
    cart_id: row.cart_id,
    product_id: row.product_id,
    quantity: row.quantity,
    unit_price_cents: row.unit_price_cents,
    line_total_cents: row.line_total_cents,
  };
}

/** The service's page cursors: the last row's (created_at, id), bound to the query, signed. */
export class PageCursors {
  private readonly key = createHash('sha256')
    .update(`cursor:${SETTINGS.jwtSecret}`)
    .digest('base64url');

  encode(last: { created_at: Date; id: string }, filters: [string, string][]): string {
    const payload = Buffer.from(
      JSON.stringify({ k: [last.created_at.toISOString(), last.id], b: binding(filters) }),
    ).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The (created_at, id) a cursor holds, or undefined when it is not one of ours for `filters`. */
  decode(cursor: string, filters: [string, string][]): [Date, string] | undefined {
    const [payload, signature] = cursor.split('.');
    const expected = Buffer.from(this.sign(payload ?? ''));
    const given = Buffer.from(signature ?? '');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    const { k, b } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
      k: [string, string];
      b: string;
    };
    return b === binding(filters) ? [new Date(k[0]), k[1]] : undefined;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}

// The collection (products, no owner) and the caller (anonymous, of no tenant: the bench
// pages publicly), then the filter and the order.
function binding(filters: [string, string][]): string {
  const scope = JSON.stringify(['products', null, null, null]);
  return scope + JSON.stringify([filters, ['created_at', 'id']]);
}
