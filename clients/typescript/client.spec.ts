import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const GENERATED = ['openapi.json', 'schema.ts'];

// The committed client must be what the declarations generate today (from the build, which
// `npm test` makes first): a changed declaration without a regenerated client fails here.
describe('the committed TypeScript client', () => {
  let folder: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'client-'));
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'client-generate.mjs'), folder]);
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it.each(GENERATED)('%s is up to date', (name) => {
    const fresh = readFileSync(join(folder, name), 'utf8');
    if (readFileSync(join(__dirname, name), 'utf8') !== fresh) {
      throw new Error(`clients/typescript/${name} is stale: run npm run client:generate`);
    }
  });
});
