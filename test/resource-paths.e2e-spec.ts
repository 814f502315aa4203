import request from 'supertest';
import { ResourceRegistry } from '@app/resource-kit';
import { ADMIN_TOKEN } from './support/shop-client';
import { startTestApp, TestApp } from './support/test-app';

// SPEC 1.1 and 1.3: a type is exactly its path segment. Express matches routes ignoring case
// and a trailing slash; the kit answers those spellings 404, for every declared resource.
describe('resource paths are exact', () => {
  let service: TestApp;
  let types: string[];

  beforeAll(async () => {
    service = await startTestApp();
    types = service.app
      .get(ResourceRegistry)
      .definitions()
      .map((definition) => definition.type);
  });
  afterAll(() => service.close());

  const respellings = (type: string) => [
    type.toUpperCase(),
    type[0].toUpperCase() + type.slice(1),
    type.replace(/.$/, (last) => last.toUpperCase()),
  ];

  it('answers any other spelling of a type 404 in the envelope, on every path shape and verb', async () => {
    for (const type of types) {
      for (const spelling of respellings(type)) {
        for (const [method, path] of [
          ['get', `/${spelling}`],
          ['post', `/${spelling}`],
          ['get', `/${spelling}/1`],
          ['patch', `/${spelling}/1`],
          ['delete', `/${spelling}/1`],
          ['put', `/${spelling}/1`],
          ['get', `/${spelling}/1/user`],
        ] as const) {
          const response = await request(service.http)
            [method](path)
            .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
            .send({ data: {} });
          expect([method, path, response.status, response.body]).toEqual([
            method,
            path,
            404,
            { error: ['no such path'] },
          ]);
        }
      }
    }
  }, 30_000);

  it('answers a trailing slash 404: /{type}/ and /{type}/{id}/ are not paths of the API', async () => {
    for (const type of types) {
      for (const path of [`/${type}/`, `/${type}/1/`, `/${type}/1/user/`]) {
        const response = await request(service.http)
          .get(path)
          .set('Authorization', `Bearer ${ADMIN_TOKEN}`);
        expect([path, response.status, response.body]).toEqual([
          path,
          404,
          { error: ['no such path'] },
        ]);
      }
    }
  });

  it('still answers the exact spelling', async () => {
    for (const type of types) {
      const response = await request(service.http)
        .get(`/${type}`)
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`);
      expect([type, response.status]).toEqual([type, 200]);
    }
  });
});
