import { onlineMigration } from './online-migration';

// What TypeORM's `migration:generate --pretty` writes, in its layout.
function generated(up: string[], down: string[]): string {
  const queries = (statements: string[]) =>
    statements
      .map((sql) => `        await queryRunner.query(\`\n            ${sql}\n        \`);\n`)
      .join('');
  return `import { MigrationInterface, QueryRunner } from "typeorm";

export class AddSkus1800000000000 implements MigrationInterface {
    name = 'AddSkus1800000000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
${queries(up)}    }

    public async down(queryRunner: QueryRunner): Promise<void> {
${queries(down)}    }

}
`;
}

const options = { name: 'AddSkus', timestamp: 1800000000001 };

describe('onlineMigration', () => {
  it('moves an index of a live table to a concurrent build outside a transaction', () => {
    const source = generated(
      [
        'ALTER TABLE "products"\n            ADD "sku" character varying(64)',
        'CREATE INDEX "products_sku" ON "products" ("sku")',
      ],
      ['DROP INDEX "products_sku"', 'ALTER TABLE "products" DROP COLUMN "sku"'],
    );
    const { source: rewritten, online } = onlineMigration(source, options);
    expect(rewritten).not.toContain('CREATE INDEX');
    expect(rewritten).not.toContain('DROP INDEX');
    expect(rewritten).toContain('ADD "sku" character varying(64)');
    expect(rewritten).toContain('DROP COLUMN "sku"');
    expect(online).toContain(
      'export class AddSkusOnline1800000000001 implements MigrationInterface',
    );
    expect(online).toContain('    transaction = false\n');
    const up = online!.slice(online!.indexOf('async up('), online!.indexOf('async down('));
    expect(up.indexOf('DROP INDEX CONCURRENTLY IF EXISTS "products_sku"')).toBeLessThan(
      up.indexOf('CREATE INDEX CONCURRENTLY IF NOT EXISTS "products_sku" ON "products" ("sku")'),
    );
    expect(online!.slice(online!.indexOf('async down('))).toContain(
      'DROP INDEX CONCURRENTLY IF EXISTS "products_sku"',
    );
  });

  it('builds the trigram index of a searchable attribute concurrently too', () => {
    // The generator adds it in the kit's own layout (searchIndexMigration), one line a call.
    const index =
      'CREATE INDEX IF NOT EXISTS "products_sku_search" ON "products" USING gin (lower("sku") public.gin_trgm_ops)';
    const source = generated([], []).replace(
      '    }\n\n    public async down(',
      `        await queryRunner.query(\`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public\`);\n` +
        `        await queryRunner.query(\`${index}\`);\n` +
        '    }\n\n    public async down(',
    );
    const { source: rewritten, online } = onlineMigration(source, options);
    expect(rewritten).toContain('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    expect(rewritten).not.toContain('CREATE INDEX');
    expect(online).toContain(
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS "products_sku_search" ON "products" USING gin (lower("sku") public.gin_trgm_ops)',
    );
  });

  it('adds a constraint to a live table NOT VALID, and validates it in the follow-up', () => {
    const { source, online } = onlineMigration(
      generated(
        [
          'ALTER TABLE "order_items"\n            ADD CONSTRAINT "FK_x" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE',
        ],
        ['ALTER TABLE "order_items" DROP CONSTRAINT "FK_x"'],
      ),
      options,
    );
    expect(source).toContain('REFERENCES "products"("id") ON DELETE CASCADE NOT VALID\n');
    expect(online).toContain('ALTER TABLE "order_items" VALIDATE CONSTRAINT "FK_x"');
    expect(online).toContain('-- squawk-ignore prefer-robust-stmts: ');
  });

  it('leaves a migration of new tables alone', () => {
    const source = generated(
      [
        'CREATE TABLE "skus" ("id" character varying(36) NOT NULL, "product_id" character varying(36))',
        'CREATE INDEX "skus_product_id" ON "skus" ("product_id")',
        'ALTER TABLE "skus"\n            ADD CONSTRAINT "FK_s" FOREIGN KEY ("product_id") REFERENCES "products"("id")',
      ],
      ['DROP INDEX "skus_product_id"', 'DROP TABLE "skus"'],
    );
    expect(onlineMigration(source, options)).toEqual({ source, online: undefined });
  });
});
