import { breakingChanges, describeContract, ResourceRegistry } from '@app/resource-kit';
import type { Contract } from '@app/resource-kit';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

  it('`npm run contract:check` says what it checked when it passes', async () => {
    // The built command (npm test builds first), as CI runs it.
    const command = join(__dirname, '..', 'dist', 'apps', 'api', 'src', 'contract.js');
    const { stdout } = await promisify(execFile)(process.execPath, [command, 'check']);
    expect(stdout).toMatch(
      /^Contract check passed: \d+ resources, no breaking change against apps\/api\/contract\.json/,
    );
  });
});
