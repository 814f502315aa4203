import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { npmScript, repositoryCopy } from '../support/repository-copy';

// SPEC 1.19: `npm run lint` lints every PostgreSQL migration for locks (squawk, with the rules
// of .squawk.toml); a planted unsafe one is refused with the rule's message, at its line.
const FOLDER = 'apps/api/src/database/migrations/postgres';

/** A migration as the team's tools write it, with `up`'s statements and its options. */
function migration(name: string, statements: string[], options = ''): string {
  const queries = statements
    .map((sql) => `        await queryRunner.query(\`\n            ${sql}\n        \`);\n`)
    .join('');
  return `import { MigrationInterface, QueryRunner } from "typeorm";

export class ${name} implements MigrationInterface {
    name = '${name}'
${options}
    public async up(queryRunner: QueryRunner): Promise<void> {
${queries}    }

    public async down(queryRunner: QueryRunner): Promise<void> {
    }

}
`;
}

describe('npm run lint:migrations', () => {
  let copy: string;
  const { run: lint, refusal } = npmScript(() => copy, 'lint:migrations');
  const plant = async (file: string, text: string, check: () => Promise<void>) => {
    const path = join(copy, FOLDER, file);
    writeFileSync(path, text);
    try {
      await check();
    } finally {
      rmSync(path);
    }
  };

  beforeAll(() => {
    copy = repositoryCopy('migration-lint-');
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('passes the shop’s migrations', async () => {
    const { stdout } = await lint();
    expect(stdout).toMatch(/migration\(s\) linted, no problem/);
  });

  it('refuses a plain CREATE INDEX and a foreign key that blocks writes, naming the rule and the line', async () => {
    const file = '1899999999000-AddSku.ts';
    await plant(
      file,
      migration('AddSku1899999999000', [
        'ALTER TABLE "products" ADD "sku" character varying(64)',
        'CREATE INDEX "products_sku" ON "products" ("sku")',
        'ALTER TABLE "order_items" ADD CONSTRAINT "FK_sku" FOREIGN KEY ("product_id") REFERENCES "products"("id")',
      ]),
      async () => {
        const output = await refusal();
        expect(output).toContain(
          `${FOLDER}/${file}:11:13: require-concurrent-index-creation: During normal index creation, table updates are blocked, but reads are still allowed.`,
        );
        expect(output).toMatch(
          new RegExp(
            `${FOLDER}/${file}:14:\\d+: adding-foreign-key-constraint: Adding a foreign key constraint requires a table scan`,
          ),
        );
        expect(output).toContain('constraint-missing-not-valid');
      },
    );
  });

  it('passes the same change written online: NOT VALID, then validated and indexed concurrently', async () => {
    await plant(
      '1899999999000-AddSku.ts',
      migration('AddSku1899999999000', [
        'ALTER TABLE "products" ADD "sku" character varying(64)',
        'ALTER TABLE "order_items" ADD CONSTRAINT "FK_sku" FOREIGN KEY ("product_id") REFERENCES "products"("id") NOT VALID',
      ]),
      () =>
        plant(
          '1899999999001-AddSkuOnline.ts',
          migration(
            'AddSkuOnline1899999999001',
            [
              '-- squawk-ignore prefer-robust-stmts: validating a constraint again does nothing\n            ALTER TABLE "order_items" VALIDATE CONSTRAINT "FK_sku"',
              'DROP INDEX CONCURRENTLY IF EXISTS "products_sku"',
              'CREATE INDEX CONCURRENTLY IF NOT EXISTS "products_sku" ON "products" ("sku")',
            ],
            '    transaction = false\n',
          ),
          async () => {
            const { stdout } = await lint();
            expect(stdout).toMatch(/linted, no problem/);
          },
        ),
    );
  });

  it('takes a waiver with a reason, and refuses one without', async () => {
    const waived = (reason: string) =>
      migration('Waived1899999999000', [
        `-- squawk-ignore require-concurrent-index-creation${reason}\n            CREATE INDEX "products_name_again" ON "products" ("name")`,
      ]);
    await plant(
      '1899999999000-Waived.ts',
      waived(': products is small in every deployment'),
      async () => {
        const { stdout } = await lint();
        expect(stdout).toMatch(/linted, no problem/);
      },
    );
    await plant('1899999999000-Waived.ts', waived(''), async () => {
      expect(await refusal()).toContain(
        `${FOLDER}/1899999999000-Waived.ts:8:1: the waiver of require-concurrent-index-creation gives no reason`,
      );
    });
  });
});
