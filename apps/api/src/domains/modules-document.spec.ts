import { readFileSync } from 'node:fs';
import { MODULES_DOCUMENT, modulesDocument } from './modules-document';

// The committed document must be what the code generates today: a changed declaration,
// resource or reaction without `npm run docs:modules` fails here (SPEC 1.18).
describe('docs/modules.md', () => {
  it('is what the domains generate', async () => {
    if (readFileSync(MODULES_DOCUMENT, 'utf8') !== (await modulesDocument())) {
      throw new Error('docs/modules.md is stale: run npm run docs:modules');
    }
  });
});
