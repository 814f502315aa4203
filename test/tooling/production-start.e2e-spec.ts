import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

// The node flags production starts the service with are written twice, in `npm start` and in
// the image's CMD (the bench reads them from `npm start`): they must not drift apart.
describe('the production start line', () => {
  const startFlags = (
    JSON.parse(read('package.json')) as { scripts: { start: string } }
  ).scripts.start
    .split(' ')
    .filter((word) => word.startsWith('--'));

  it('carries the heap and pretenuring flags docs/operations.md explains', () => {
    expect(startFlags).toEqual([
      '--max-semi-space-size=16',
      '--max-old-space-size=384',
      '--no-allocation-site-pretenuring',
    ]);
  });

  it("is the Dockerfile's CMD too", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'))![1];
    expect(JSON.parse(cmd)).toEqual(['node', ...startFlags, '.']);
  });
});
