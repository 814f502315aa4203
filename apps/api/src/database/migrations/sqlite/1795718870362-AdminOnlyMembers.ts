import { MigrationInterface, QueryRunner } from "typeorm";

export class AdminOnlyMembers1795718870362 implements MigrationInterface {
    name = 'AdminOnlyMembers1795718870362'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP INDEX "products_price_cents_id"
        `);
        await queryRunner.query(`
            DROP INDEX "products_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "products_name_id"
        `);
        await queryRunner.query(`
            DROP INDEX "products_created_at_id"
        `);
        await queryRunner.query(`
            CREATE TABLE "temporary_products" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "name" varchar(200) NOT NULL,
                "description" text,
                "price_cents" integer NOT NULL,
                "currency" varchar(3) NOT NULL DEFAULT ('EUR'),
                "stock" integer NOT NULL,
                "cost_cents" integer
            )
        `);
        await queryRunner.query(`
            INSERT INTO "temporary_products"(
                    "id",
                    "created_at",
                    "updated_at",
                    "name",
                    "description",
                    "price_cents",
                    "currency",
                    "stock"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "name",
                "description",
                "price_cents",
                "currency",
                "stock"
            FROM "products"
        `);
        await queryRunner.query(`
            DROP TABLE "products"
        `);
        await queryRunner.query(`
            ALTER TABLE "temporary_products"
                RENAME TO "products"
        `);
        await queryRunner.query(`
            CREATE INDEX "products_price_cents_id" ON "products" ("price_cents", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "products_updated_at_id" ON "products" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "products_name_id" ON "products" ("name", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "products_created_at_id" ON "products" ("created_at", "id")
        `);
        await queryRunner.query(`
            DROP INDEX "product_revisions_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "product_revisions_product_id_revision"
        `);
        await queryRunner.query(`
            DROP INDEX "product_revisions_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_49824575b2e3574af2dccab05e"
        `);
        await queryRunner.query(`
            CREATE TABLE "temporary_product_revisions" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "product_id" varchar(36) NOT NULL,
                "revision" integer NOT NULL,
                "name" varchar(200),
                "description" text,
                "price_cents" integer,
                "currency" varchar(3),
                "stock" integer,
                "cost_cents" integer,
                CONSTRAINT "FK_49824575b2e3574af2dccab05ee" FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
        await queryRunner.query(`
            INSERT INTO "temporary_product_revisions"(
                    "id",
                    "created_at",
                    "updated_at",
                    "product_id",
                    "revision",
                    "name",
                    "description",
                    "price_cents",
                    "currency",
                    "stock"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "product_id",
                "revision",
                "name",
                "description",
                "price_cents",
                "currency",
                "stock"
            FROM "product_revisions"
        `);
        await queryRunner.query(`
            DROP TABLE "product_revisions"
        `);
        await queryRunner.query(`
            ALTER TABLE "temporary_product_revisions"
                RENAME TO "product_revisions"
        `);
        await queryRunner.query(`
            CREATE INDEX "product_revisions_updated_at_id" ON "product_revisions" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "product_revisions_product_id_revision" ON "product_revisions" ("product_id", "revision")
        `);
        await queryRunner.query(`
            CREATE INDEX "product_revisions_created_at_id" ON "product_revisions" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_49824575b2e3574af2dccab05e" ON "product_revisions" ("product_id")
        `);
        await queryRunner.query(`
            DROP INDEX "orders_status_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "orders_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "orders_user_id_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "orders_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_a922b820eeef29ac1c6800e826"
        `);
        await queryRunner.query(`
            CREATE TABLE "temporary_orders" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "status" varchar(9) NOT NULL DEFAULT ('placed'),
                "total_cents" integer NOT NULL,
                "item_count" integer NOT NULL,
                "currency" varchar(3) NOT NULL,
                "requested_delivery_date" date,
                "user_id" varchar(36) NOT NULL,
                "admin_note" text,
                CONSTRAINT "FK_a922b820eeef29ac1c6800e826a" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
            )
        `);
        await queryRunner.query(`
            INSERT INTO "temporary_orders"(
                    "id",
                    "created_at",
                    "updated_at",
                    "status",
                    "total_cents",
                    "item_count",
                    "currency",
                    "requested_delivery_date",
                    "user_id"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "status",
                "total_cents",
                "item_count",
                "currency",
                "requested_delivery_date",
                "user_id"
            FROM "orders"
        `);
        await queryRunner.query(`
            DROP TABLE "orders"
        `);
        await queryRunner.query(`
            ALTER TABLE "temporary_orders"
                RENAME TO "orders"
        `);
        await queryRunner.query(`
            CREATE INDEX "orders_status_created_at_id" ON "orders" ("status", "created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "orders_updated_at_id" ON "orders" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "orders_user_id_created_at_id" ON "orders" ("user_id", "created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "orders_created_at_id" ON "orders" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_a922b820eeef29ac1c6800e826" ON "orders" ("user_id")
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP INDEX "IDX_a922b820eeef29ac1c6800e826"
        `);
        await queryRunner.query(`
            DROP INDEX "orders_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "orders_user_id_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "orders_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "orders_status_created_at_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "orders"
                RENAME TO "temporary_orders"
        `);
        await queryRunner.query(`
            CREATE TABLE "orders" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "status" varchar(9) NOT NULL DEFAULT ('placed'),
                "total_cents" integer NOT NULL,
                "item_count" integer NOT NULL,
                "currency" varchar(3) NOT NULL,
                "requested_delivery_date" date,
                "user_id" varchar(36) NOT NULL,
                CONSTRAINT "FK_a922b820eeef29ac1c6800e826a" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
            )
        `);
        await queryRunner.query(`
            INSERT INTO "orders"(
                    "id",
                    "created_at",
                    "updated_at",
                    "status",
                    "total_cents",
                    "item_count",
                    "currency",
                    "requested_delivery_date",
                    "user_id"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "status",
                "total_cents",
                "item_count",
                "currency",
                "requested_delivery_date",
                "user_id"
            FROM "temporary_orders"
        `);
        await queryRunner.query(`
            DROP TABLE "temporary_orders"
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_a922b820eeef29ac1c6800e826" ON "orders" ("user_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "orders_created_at_id" ON "orders" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "orders_user_id_created_at_id" ON "orders" ("user_id", "created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "orders_updated_at_id" ON "orders" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "orders_status_created_at_id" ON "orders" ("status", "created_at", "id")
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_49824575b2e3574af2dccab05e"
        `);
        await queryRunner.query(`
            DROP INDEX "product_revisions_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "product_revisions_product_id_revision"
        `);
        await queryRunner.query(`
            DROP INDEX "product_revisions_updated_at_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "product_revisions"
                RENAME TO "temporary_product_revisions"
        `);
        await queryRunner.query(`
            CREATE TABLE "product_revisions" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "product_id" varchar(36) NOT NULL,
                "revision" integer NOT NULL,
                "name" varchar(200),
                "description" text,
                "price_cents" integer,
                "currency" varchar(3),
                "stock" integer,
                CONSTRAINT "FK_49824575b2e3574af2dccab05ee" FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
        await queryRunner.query(`
            INSERT INTO "product_revisions"(
                    "id",
                    "created_at",
                    "updated_at",
                    "product_id",
                    "revision",
                    "name",
                    "description",
                    "price_cents",
                    "currency",
                    "stock"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "product_id",
                "revision",
                "name",
                "description",
                "price_cents",
                "currency",
                "stock"
            FROM "temporary_product_revisions"
        `);
        await queryRunner.query(`
            DROP TABLE "temporary_product_revisions"
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_49824575b2e3574af2dccab05e" ON "product_revisions" ("product_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "product_revisions_created_at_id" ON "product_revisions" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "product_revisions_product_id_revision" ON "product_revisions" ("product_id", "revision")
        `);
        await queryRunner.query(`
            CREATE INDEX "product_revisions_updated_at_id" ON "product_revisions" ("updated_at", "id")
        `);
        await queryRunner.query(`
            DROP INDEX "products_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "products_name_id"
        `);
        await queryRunner.query(`
            DROP INDEX "products_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "products_price_cents_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "products"
                RENAME TO "temporary_products"
        `);
        await queryRunner.query(`
            CREATE TABLE "products" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "name" varchar(200) NOT NULL,
                "description" text,
                "price_cents" integer NOT NULL,
                "currency" varchar(3) NOT NULL DEFAULT ('EUR'),
                "stock" integer NOT NULL
            )
        `);
        await queryRunner.query(`
            INSERT INTO "products"(
                    "id",
                    "created_at",
                    "updated_at",
                    "name",
                    "description",
                    "price_cents",
                    "currency",
                    "stock"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "name",
                "description",
                "price_cents",
                "currency",
                "stock"
            FROM "temporary_products"
        `);
        await queryRunner.query(`
            DROP TABLE "temporary_products"
        `);
        await queryRunner.query(`
            CREATE INDEX "products_created_at_id" ON "products" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "products_name_id" ON "products" ("name", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "products_updated_at_id" ON "products" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "products_price_cents_id" ON "products" ("price_cents", "id")
        `);
    }

}
