// The other baselines' wire form (bench/baselines/shop.wire.ts), as the bench compiled it.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const compiled = join(import.meta.dirname, '..', '..', '..', 'dist', 'bench', 'bench', 'baselines');
export const { adminProductWire, PageCursors, productProblems, productWire, SETTINGS } =
  createRequire(import.meta.url)(join(compiled, 'shop.wire.js'));
