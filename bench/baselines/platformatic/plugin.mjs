// The shop's wire on Platformatic's generated routes: Fastify hooks translate the service's
// query parameters and body into Platformatic's and its answers into the service's bytes; an
// entity hook writes a product's revision and event in the create's transaction.
import { timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import {
  adminProductWire,
  PageCursors,
  productProblems,
  productWire,
  SETTINGS,
} from './shop-wire.mjs';

const COLLECTION = '/products';
const SINGLE = '/products/:id';
const MIN_PRICE = 'filter[price_cents][gte]';
const cursors = new PageCursors();

export default async function shop(app) {
  const { db, sql } = app.platformatic;
  const admins = await adminIds(db, sql);

  app.setErrorHandler((error, _request, reply) => {
    const status = error.statusCode ?? 500;
    void reply.code(status).send({ error: [status < 500 ? error.message : 'internal error'] });
  });

  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.url !== COLLECTION) return;
    if (request.method === 'GET') {
      request.page = translateQuery(request);
    } else if (request.method === 'POST') {
      request.caller = { id: requireAdmin(request, admins), role: 'admin' };
      request.body = newProduct(request.body);
    }
  });

  app.addHook('preSerialization', async (request, reply, payload) => {
    const served = [COLLECTION, SINGLE].includes(request.routeOptions.url);
    if (reply.statusCode >= 400 || !served) return payload;
    // The generated routes' response schemas describe Platformatic's shape, not the service's.
    reply.serializer(JSON.stringify);
    if (request.method === 'POST') {
      void reply.code(201);
      // A create answers its administrator, who also reads the members only administrators read.
      return { data: adminProductWire(rowOf(payload)) };
    }
    if (!request.page) return { data: productWire(rowOf(payload)) };
    const { limit, filters } = request.page;
    const rows = payload.slice(0, limit).map(rowOf);
    const cursor = payload.length > limit ? cursors.encode(rows.at(-1), filters) : null;
    return { data: rows.map(productWire), cursor };
  });

  // In the create's transaction: the first revision and the event, as the service writes them.
  app.platformatic.addEntityHooks('product', {
    async save(original, options) {
      return db.tx(async (tx) => {
        const product = await original({ ...options, tx });
        await recordHistory(tx, sql, product, options.ctx.reply.request.caller.id);
        return product;
      });
    },
  });
}

// Fastify's encapsulation would keep the hooks to this plugin's own routes: they are for the
// generated ones (what fastify-plugin does).
shop[Symbol.for('skip-override')] = true;

// The shop's limit, filter and cursor as Platformatic's where, orderby and startAfter.
function translateQuery(request) {
  const given = request.query;
  const limit = Number(given.limit ?? SETTINGS.pageSize.default);
  if (!Number.isInteger(limit) || limit < 1 || limit > SETTINGS.pageSize.max) {
    throw badRequest('limit must be an integer from 1 to 100');
  }
  const minPrice = given[MIN_PRICE];
  if (minPrice !== undefined && !/^\d+$/.test(minPrice)) {
    throw badRequest(`${MIN_PRICE} must be an integer`);
  }
  const filters = minPrice === undefined ? [] : [[MIN_PRICE, minPrice]];
  const query = { limit: limit + 1, 'orderby.createdAt': 'asc', 'orderby.id': 'asc' };
  if (minPrice !== undefined) query['where.priceCents.gte'] = Number(minPrice);
  if (given.cursor !== undefined) {
    const after = cursors.decode(given.cursor, filters);
    if (!after) throw badRequest('cursor is not a cursor this service issued');
    const [createdAt, id] = after;
    const start = JSON.stringify({ createdAt: createdAt.toISOString(), id });
    query.startAfter = Buffer.from(start).toString('base64');
  }
  request.query = query;
  return { limit, filters };
}

function newProduct(body) {
  const data = body?.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw badRequest('the body must be a JSON object with one member, data');
  }
  const problems = productProblems(data);
  if (problems.length > 0) throw badRequest(problems.join('; '));
  const now = new Date().toISOString();
  return {
    id: uuidv7(),
    createdAt: now,
    updatedAt: now,
    name: data.name,
    description: data.description ?? null,
    priceCents: data.price_cents,
    currency: data.currency ?? 'EUR',
    stock: data.stock,
    costCents: data.cost_cents ?? null,
  };
}

async function recordHistory(tx, sql, product, userId) {
  const { id, name, description, priceCents, currency, stock, costCents } = product;
  const now = new Date(product.createdAt);
  await tx.query(sql`
    INSERT INTO product_revisions
      (id, created_at, updated_at, product_id, revision, name, description, price_cents, currency, stock, cost_cents)
    VALUES (${uuidv7()}, ${now}, ${now}, ${id}, 1, ${name}, ${description}, ${priceCents}, ${currency}, ${stock}, ${costCents})`);
  await tx.query(sql`
    INSERT INTO events
      (id, created_at, updated_at, action, subject_type, subject_id, user_id, occurred_at)
    VALUES (${uuidv7()}, ${now}, ${now}, 'created', 'products', ${id}, ${userId}, ${now})`);
}

// Platformatic's camelCase entity as the row the shared wire code takes.
function rowOf(entity) {
  return {
    id: entity.id,
    created_at: new Date(entity.createdAt),
    updated_at: new Date(entity.updatedAt),
    name: entity.name,
    description: entity.description,
    price_cents: entity.priceCents,
    currency: entity.currency,
    stock: entity.stock,
    cost_cents: entity.costCents,
  };
}

async function adminIds(db, sql) {
  const admins = new Map(); // static token -> user id
  for (const { token, email } of SETTINGS.adminTokens) {
    const [user] = await db.query(
      sql`SELECT id FROM users WHERE email_key = ${email.toLowerCase()}`,
    );
    if (user) admins.set(token, user.id);
  }
  return admins;
}

function requireAdmin(request, admins) {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) throw unauthorized('a bearer token is required');
  const given = Buffer.from(header.slice(7));
  for (const [token, id] of admins) {
    const known = Buffer.from(token);
    if (known.length === given.length && timingSafeEqual(known, given)) return id;
  }
  throw unauthorized('the bearer token is invalid, expired or revoked');
}

const badRequest = (message) => Object.assign(new Error(message), { statusCode: 400 });
const unauthorized = (message) => Object.assign(new Error(message), { statusCode: 401 });
