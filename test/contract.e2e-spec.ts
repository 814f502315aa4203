import { breakingChanges, describeContract, ResourceRegistry } from '@app/resource-kit';
import type { Contract } from '@app/resource-kit';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, TestApp } from './support/test-app';

// SPEC 1.9: the declarations may only grow. apps/api/contract.json is the committed snapshot
// (`npm run contract:write` after an additive change).
describe('the wire contract', () => {
  let service: TestApp;
  let current: Contract;
  const snapshot = JSON.parse(
    readFileSync(join(__dirname, '..', 'apps', 'api', 'contract.json'), 'utf8'),
  ) as Contract;

  beforeAll(async () => {
    service = await startTestApp();
    current = describeContract(service.app.get(ResourceRegistry).definitions());
  });
  afterAll(() => service.close());

  it('has no breaking change against the committed snapshot', () => {
    expect(breakingChanges(snapshot, current)).toEqual([]);
  });

  it('is the committed snapshot (additive changes are committed too)', () => {
    expect(current).toEqual(snapshot);
  });
});
