import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { withClient } from './support/test-database';
import { startTestApp } from './support/test-app';

const onPostgres = process.env.TEST_DATABASE === 'postgres' ? describe : describe.skip;

onPostgres('a DATABASE_SCHEMA that does not exist yet', () => {
  const schema = `new_${Date.now()}_${randomBytes(4).toString('hex')}`;
  afterAll(() => withClient((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)));

  it('is created at start, and the migrations run into it', async () => {
    const service = await startTestApp({ DATABASE_SCHEMA: schema });
    try {
      await request(service.http).get('/products').expect(200);
      let tables: string[] = [];
      await withClient(async (client) => {
        const { rows } = await client.query<{ table_name: string }>(
          'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
          [schema],
        );
        tables = rows.map((row) => row.table_name);
      });
      expect(tables).toEqual(expect.arrayContaining(['migrations', 'products', 'users']));
    } finally {
      await service.close();
    }
  });
});
