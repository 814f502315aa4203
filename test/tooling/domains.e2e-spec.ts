import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { npmScript, repositoryCopy } from '../support/repository-copy';

// SPEC 1.18: `npm run lint` checks the domains' boundaries from their declarations
// (apps/api/src/domains); each planted violation is refused with the file, the import, the
// rule and the fix.
describe('npm run lint:domains', () => {
  let copy: string;
  const lint = npmScript(() => copy, 'lint:domains');
  const check = lint.run;
  const refusal = async () => (await lint.refusal()).replace(/\s+/g, ' ');
  const plant = (path: string, text: string) => {
    mkdirSync(join(copy, path, '..'), { recursive: true });
    writeFileSync(join(copy, path), text);
  };

  beforeAll(() => {
    copy = repositoryCopy('domains-');
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('passes the shop as it is', async () => {
    const { stdout } = await check();
    expect(stdout).toMatch(/no dependency violations found/);
  });

  it('refuses an import of a domain that is not declared as a dependency', async () => {
    const path = 'apps/api/src/modules/products/planted.ts';
    plant(path, "export { Order } from '../orders/order.entity';\n");
    try {
      expect(await refusal()).toContain(
        'error undeclared-dependency-of-catalog-on-ordering: apps/api/src/modules/products/planted.ts → apps/api/src/modules/orders/order.entity.ts' +
          " catalog does not declare that it depends on ordering: add 'ordering' to dependsOn in apps/api/src/domains/catalog.domain.ts",
      );
    } finally {
      rmSync(join(copy, path));
    }
  });

  it('refuses an import of another domain’s internals', async () => {
    const path = 'apps/api/src/modules/orders/planted.ts';
    plant(path, "export { UsersService } from '../users/users.service';\n");
    try {
      expect(await refusal()).toContain(
        'error internal-import-from-ordering-into-accounts: apps/api/src/modules/orders/planted.ts → apps/api/src/modules/users/users.service.ts' +
          ' ordering imports a file of accounts that is not its public API',
      );
    } finally {
      rmSync(join(copy, path));
    }
  });

  it('refuses declared dependencies that form a cycle, naming it', async () => {
    const path = join(copy, 'apps/api/src/domains/catalog.domain.ts');
    const declared = readFileSync(path, 'utf8');
    writeFileSync(path, declared.replace('dependsOn: []', "dependsOn: ['ordering']"));
    try {
      expect(await refusal()).toContain(
        'the dependencies form a cycle, accounts → catalog → ordering → accounts',
      );
    } finally {
      writeFileSync(path, declared);
    }
  });

  it('refuses a resource module that belongs to no domain', async () => {
    plant('apps/api/src/modules/gizmos/gizmo.entity.ts', 'export const gizmo = 1;\n');
    try {
      expect(await refusal()).toContain(
        "apps/api/src/modules/gizmos belongs to no domain: add 'modules/gizmos' to the folders of the domain whose team owns it",
      );
    } finally {
      rmSync(join(copy, 'apps/api/src/modules/gizmos'), { recursive: true });
    }
  });
});
