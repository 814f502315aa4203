// Feathers 5 as its guides build a service: the koa transport, @feathersjs/knex on the same
// database, hooks for access, validation, the transaction and the answer's shape. It answers
// the service's bytes for the scenarios it serves (S1, S2, S2f, S3), with the same work:
// a product's create writes its revision and an event in one transaction.
process.env.TZ = 'UTC';
import { timingSafeEqual } from 'node:crypto';
import { feathers, type HookContext } from '@feathersjs/feathers';
import { BadRequest, NotAuthenticated } from '@feathersjs/errors';
import { bodyParser, errorHandler, koa, rest } from '@feathersjs/koa';
import { KnexService, transaction } from '@feathersjs/knex';
import knex from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { logRequest } from '../request-log';
import {
  adminProductWire,
  PageCursors,
  productProblems,
  ProductRow,
  productWire,
  SETTINGS,
} from '../shop.wire';

const db = knex({
  client: 'pg',
  connection: { connectionString: SETTINGS.databaseUrl, options: SETTINGS.sessionOptions },
  pool: { min: 0, max: SETTINGS.pool.max },
});
const cursors = new PageCursors();
const admins = new Map<string, string>(); // static token -> user id

type Query = Record<string, unknown>;
const MIN_PRICE = 'filter[price_cents][gte]';

// What the hooks keep in a call's params, besides Feathers' own query and headers.
interface ShopParams {
  query?: Query;
  headers: Record<string, string | undefined>;
  page?: { limit: number; filters: [string, string][] };
  caller?: { id: string; role: string };
  transaction?: { trx: knex.Knex.Transaction };
}
const paramsOf = (context: HookContext): ShopParams => context.params as ShopParams;

// The shop's query parameters (limit, filter[...], cursor) as a Feathers query.
function translateQuery(context: HookContext): void {
  // Feathers' koa transport parses brackets into objects (qs): filter.price_cents.gte.
  const given = (paramsOf(context).query ?? {}) as Record<string, string | undefined> & {
    filter?: { price_cents?: { gte?: string } };
  };
  const limit = Number(given.limit ?? SETTINGS.pageSize.default);
  if (!Number.isInteger(limit) || limit < 1 || limit > SETTINGS.pageSize.max)
    throw new BadRequest('limit must be an integer from 1 to 100');
  const minPrice = given.filter?.price_cents?.gte;
  if (minPrice !== undefined && !/^\d+$/.test(minPrice))
    throw new BadRequest(`${MIN_PRICE} must be an integer`);
  const filters: [string, string][] = minPrice === undefined ? [] : [[MIN_PRICE, minPrice]];
  const query: Query = { $limit: limit + 1, $sort: { created_at: 1, id: 1 } };
  if (minPrice !== undefined) query.price_cents = { $gte: Number(minPrice) };
  if (given.cursor !== undefined) {
    const after = cursors.decode(given.cursor, filters);
    if (!after) throw new BadRequest('cursor is not a cursor this service issued');
    const [createdAt, id] = after;
    query.$or = [{ created_at: { $gt: createdAt } }, { created_at: createdAt, id: { $gt: id } }];
  }
  paramsOf(context).query = query;
  paramsOf(context).page = { limit, filters };
}

function shapePage(context: HookContext): void {
  const { limit, filters } = paramsOf(context).page!;
  const rows = context.result as ProductRow[];
  const page = rows.slice(0, limit);
  const cursor = rows.length > limit ? cursors.encode(page[page.length - 1], filters) : null;
  context.result = { data: page.map(productWire), cursor };
}

function requireAdmin(context: HookContext): void {
  const header = paramsOf(context).headers.authorization;
  if (!header?.startsWith('Bearer ')) throw new NotAuthenticated('a bearer token is required');
  const given = Buffer.from(header.slice(7));
  for (const [token, id] of admins) {
    const known = Buffer.from(token);
    if (known.length === given.length && timingSafeEqual(known, given)) {
      paramsOf(context).caller = { id, role: 'admin' };
      return;
    }
  }
  throw new NotAuthenticated('the bearer token is invalid, expired or revoked');
}

function newProduct(context: HookContext): void {
  const { data } = (context.data ?? {}) as { data?: Record<string, unknown> };
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new BadRequest('the body must be a JSON object with one member, data');
  const problems = productProblems(data);
  if (problems.length > 0) throw new BadRequest(problems.join('; '));
  const now = new Date();
  context.data = {
    id: uuidv7(),
    created_at: now,
    updated_at: now,
    name: data.name,
    description: data.description ?? null,
    price_cents: data.price_cents,
    currency: data.currency ?? 'EUR',
    stock: data.stock,
    cost_cents: data.cost_cents ?? null,
  } satisfies Record<keyof ProductRow, unknown>;
}

// In the create's transaction: the first revision and the event, as the service writes them.
async function recordHistory(context: HookContext): Promise<void> {
  const { trx } = paramsOf(context).transaction!;
  const product = context.result as ProductRow;
  const { id, created_at: now } = product;
  // The revision holds the product as created.
  await trx('product_revisions').insert({ ...product, id: uuidv7(), product_id: id, revision: 1 });
  await trx('events').insert({
    id: uuidv7(),
    created_at: now,
    updated_at: now,
    action: 'created',
    subject_type: 'products',
    subject_id: id,
    user_id: paramsOf(context).caller!.id,
    occurred_at: now,
  });
}

function shapeOne(context: HookContext): void {
  context.result = { data: productWire(context.result as ProductRow) };
}

// The create answers its administrator, who also reads the members only administrators read.
function shapeCreated(context: HookContext): void {
  context.result = { data: adminProductWire(context.result as ProductRow) };
}

async function main(): Promise<void> {
  await db.raw('SELECT 1');
  for (const { token, email } of SETTINGS.adminTokens) {
    const [user] = await db
      .select<{ id: string }[]>('id')
      .from('users')
      .where({ email_key: email.toLowerCase() });
    if (user) admins.set(token, user.id);
  }
  const app = koa(feathers());
  app.use(async (ctx, next) => {
    logRequest(ctx.req, ctx.res);
    await next();
  });
  app.use(errorHandler());
  app.use(bodyParser());
  app.configure(rest());
  app.use(
    'products',
    new KnexService<ProductRow>({
      Model: db,
      name: 'products',
      schema: SETTINGS.schema,
      paginate: undefined,
      filters: { $or: true },
      operators: ['$gt', '$gte'],
    }),
    { methods: ['find', 'get', 'create'] },
  );
  app.service('products').hooks({
    before: {
      find: [translateQuery],
      create: [requireAdmin, newProduct, transaction.start()],
    },
    after: {
      find: [shapePage],
      get: [shapeOne],
      create: [recordHistory, transaction.end(), shapeCreated],
    },
    error: { create: [transaction.rollback()] },
  });
  const server = await app.listen(SETTINGS.port);
  process.on('SIGTERM', () => server.close(() => void db.destroy()));
}

void main();
