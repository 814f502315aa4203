import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from './support/test-app';

// The service never synchronizes: the committed migrations of each engine must describe
// exactly what the entities declare.
describe('migrations', () => {
  let service: TestApp;

  beforeAll(async () => {
    service = await startTestApp();
  });
  afterAll(() => service.close());

  it('leave nothing for the entities to change', async () => {
    const pending = await service.app.get(DataSource).driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });
});
