// The shop's typed client: openapi-fetch on the types generated from the service's OpenAPI
// document (schema.ts, by `npm run client:generate`). Paths, parameters, bodies and answers
// are checked by the compiler against the declarations.
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };
export type ShopClient = Client<paths>;

/**
 * A client of the shop at `baseUrl` (the service's origin plus its base path), sending
 * `token` as the bearer token when given:
 * `const { data } = await createShopClient('http://localhost:3000').GET('/products');`
 */
export function createShopClient(baseUrl: string, token?: string): ShopClient {
  return createClient<paths>({
    baseUrl,
    headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
  });
}
