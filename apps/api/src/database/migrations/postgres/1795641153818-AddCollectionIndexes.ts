import { MigrationInterface, QueryRunner } from "typeorm";

export class AddCollectionIndexes1795641153818 implements MigrationInterface {
    name = 'AddCollectionIndexes1795641153818'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE INDEX IF NOT EXISTS "products_updated_at_id" ON "products" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX IF NOT EXISTS "products_price_cents_id" ON "products" ("price_cents", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX IF NOT EXISTS "product_revisions_updated_at_id" ON "product_revisions" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX IF NOT EXISTS "order_items_updated_at_id" ON "order_items" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX IF NOT EXISTS "orders_updated_at_id" ON "orders" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX IF NOT EXISTS "orders_status_created_at_id" ON "orders" ("status", "created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX IF NOT EXISTS "sessions_updated_at_id" ON "sessions" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX IF NOT EXISTS "users_updated_at_id" ON "users" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX IF NOT EXISTS "carts_updated_at_id" ON "carts" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX IF NOT EXISTS "cart_items_updated_at_id" ON "cart_items" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX IF NOT EXISTS "events_updated_at_id" ON "events" ("updated_at", "id")
        `);
        await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
        await queryRunner.query(`CREATE INDEX IF NOT EXISTS "products_name_search" ON "products" USING gin (LOWER("name" COLLATE "und-x-icu") public.gin_trgm_ops)`);
        await queryRunner.query(`CREATE INDEX IF NOT EXISTS "products_description_search" ON "products" USING gin (LOWER("description" COLLATE "und-x-icu") public.gin_trgm_ops)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "products_description_search"`);
        await queryRunner.query(`DROP INDEX "products_name_search"`);
        await queryRunner.query(`
            DROP INDEX "events_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "cart_items_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "carts_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "users_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "sessions_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "orders_status_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "orders_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "order_items_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "product_revisions_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "products_price_cents_id"
        `);
        await queryRunner.query(`
            DROP INDEX "products_updated_at_id"
        `);
    }

}
