import { MigrationInterface, QueryRunner } from "typeorm";

export class CreateShop1795328484450 implements MigrationInterface {
    name = 'CreateShop1795328484450'

    public async up(queryRunner: QueryRunner): Promise<void> {
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
            CREATE INDEX "products_created_at_id" ON "products" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "products_name_id" ON "products" ("name", "id")
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
                "stock" integer
            )
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
            CREATE TABLE "order_items" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "order_id" varchar(36) NOT NULL,
                "product_id" varchar(36) NOT NULL,
                "name" varchar(200) NOT NULL,
                "quantity" integer NOT NULL,
                "unit_price_cents" integer NOT NULL,
                "line_total_cents" integer NOT NULL
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_145532db85752b29c57d2b7b1f" ON "order_items" ("order_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_9263386c35b6b242540f9493b0" ON "order_items" ("product_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "order_items_created_at_id" ON "order_items" ("created_at", "id")
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
                "user_id" varchar(36) NOT NULL
            )
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
            CREATE TABLE "sessions" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "user_id" varchar(36) NOT NULL,
                "expires_at" datetime NOT NULL
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_085d540d9f418cfbdc7bd55bb1" ON "sessions" ("user_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "sessions_created_at_id" ON "sessions" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE TABLE "users" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "email" varchar(254) NOT NULL,
                "email_key" varchar(254) NOT NULL,
                "name" varchar(200) NOT NULL,
                "password_hash" varchar(200) NOT NULL,
                "birth_date" date,
                "role" varchar(8) NOT NULL DEFAULT ('customer'),
                "cart_id" varchar(36) NOT NULL,
                CONSTRAINT "UQ_d87b0da10cbb5c0bdb73164f480" UNIQUE ("email_key")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_cbfb19ddc0218b26522f9fea2e" ON "users" ("cart_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "users_created_at_id" ON "users" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE TABLE "carts" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "user_id" varchar(36) NOT NULL,
                "subtotal_cents" integer NOT NULL DEFAULT (0),
                "item_count" integer NOT NULL DEFAULT (0),
                "currency" varchar(3) NOT NULL DEFAULT ('EUR')
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_2ec1c94a977b940d85a4f498ae" ON "carts" ("user_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "carts_created_at_id" ON "carts" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE TABLE "cart_items" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "cart_id" varchar(36) NOT NULL,
                "product_id" varchar(36) NOT NULL,
                "quantity" integer NOT NULL,
                "unit_price_cents" integer NOT NULL,
                "line_total_cents" integer NOT NULL
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_6385a745d9e12a89b859bb2562" ON "cart_items" ("cart_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_30e89257a105eab7648a35c7fc" ON "cart_items" ("product_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "cart_items_created_at_id" ON "cart_items" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "cart_items_cart_id_product_id" ON "cart_items" ("cart_id", "product_id")
        `);
        await queryRunner.query(`
            CREATE TABLE "events" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "action" varchar(7) NOT NULL,
                "subject_type" varchar(100) NOT NULL,
                "subject_id" varchar(36) NOT NULL,
                "user_id" varchar(36) NOT NULL,
                "occurred_at" datetime NOT NULL
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_9a318d170562abeb2decf0a0c0" ON "events" ("subject_type", "subject_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_09f256fb7f9a05f0ed9927f406" ON "events" ("user_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "events_created_at_id" ON "events" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "events_user_id_created_at_id" ON "events" ("user_id", "created_at", "id")
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
            CREATE INDEX "IDX_49824575b2e3574af2dccab05e" ON "product_revisions" ("product_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "product_revisions_created_at_id" ON "product_revisions" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "product_revisions_product_id_revision" ON "product_revisions" ("product_id", "revision")
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_145532db85752b29c57d2b7b1f"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_9263386c35b6b242540f9493b0"
        `);
        await queryRunner.query(`
            DROP INDEX "order_items_created_at_id"
        `);
        await queryRunner.query(`
            CREATE TABLE "temporary_order_items" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "order_id" varchar(36) NOT NULL,
                "product_id" varchar(36) NOT NULL,
                "name" varchar(200) NOT NULL,
                "quantity" integer NOT NULL,
                "unit_price_cents" integer NOT NULL,
                "line_total_cents" integer NOT NULL,
                CONSTRAINT "FK_145532db85752b29c57d2b7b1f1" FOREIGN KEY ("order_id") REFERENCES "orders" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "FK_9263386c35b6b242540f9493b00" FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
            )
        `);
        await queryRunner.query(`
            INSERT INTO "temporary_order_items"(
                    "id",
                    "created_at",
                    "updated_at",
                    "order_id",
                    "product_id",
                    "name",
                    "quantity",
                    "unit_price_cents",
                    "line_total_cents"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "order_id",
                "product_id",
                "name",
                "quantity",
                "unit_price_cents",
                "line_total_cents"
            FROM "order_items"
        `);
        await queryRunner.query(`
            DROP TABLE "order_items"
        `);
        await queryRunner.query(`
            ALTER TABLE "temporary_order_items"
                RENAME TO "order_items"
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_145532db85752b29c57d2b7b1f" ON "order_items" ("order_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_9263386c35b6b242540f9493b0" ON "order_items" ("product_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "order_items_created_at_id" ON "order_items" ("created_at", "id")
        `);
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
            CREATE INDEX "IDX_a922b820eeef29ac1c6800e826" ON "orders" ("user_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "orders_created_at_id" ON "orders" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "orders_user_id_created_at_id" ON "orders" ("user_id", "created_at", "id")
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_085d540d9f418cfbdc7bd55bb1"
        `);
        await queryRunner.query(`
            DROP INDEX "sessions_created_at_id"
        `);
        await queryRunner.query(`
            CREATE TABLE "temporary_sessions" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "user_id" varchar(36) NOT NULL,
                "expires_at" datetime NOT NULL,
                CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
        await queryRunner.query(`
            INSERT INTO "temporary_sessions"(
                    "id",
                    "created_at",
                    "updated_at",
                    "user_id",
                    "expires_at"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "user_id",
                "expires_at"
            FROM "sessions"
        `);
        await queryRunner.query(`
            DROP TABLE "sessions"
        `);
        await queryRunner.query(`
            ALTER TABLE "temporary_sessions"
                RENAME TO "sessions"
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_085d540d9f418cfbdc7bd55bb1" ON "sessions" ("user_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "sessions_created_at_id" ON "sessions" ("created_at", "id")
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_2ec1c94a977b940d85a4f498ae"
        `);
        await queryRunner.query(`
            DROP INDEX "carts_created_at_id"
        `);
        await queryRunner.query(`
            CREATE TABLE "temporary_carts" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "user_id" varchar(36) NOT NULL,
                "subtotal_cents" integer NOT NULL DEFAULT (0),
                "item_count" integer NOT NULL DEFAULT (0),
                "currency" varchar(3) NOT NULL DEFAULT ('EUR'),
                CONSTRAINT "FK_2ec1c94a977b940d85a4f498aea" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
        await queryRunner.query(`
            INSERT INTO "temporary_carts"(
                    "id",
                    "created_at",
                    "updated_at",
                    "user_id",
                    "subtotal_cents",
                    "item_count",
                    "currency"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "user_id",
                "subtotal_cents",
                "item_count",
                "currency"
            FROM "carts"
        `);
        await queryRunner.query(`
            DROP TABLE "carts"
        `);
        await queryRunner.query(`
            ALTER TABLE "temporary_carts"
                RENAME TO "carts"
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_2ec1c94a977b940d85a4f498ae" ON "carts" ("user_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "carts_created_at_id" ON "carts" ("created_at", "id")
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_6385a745d9e12a89b859bb2562"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_30e89257a105eab7648a35c7fc"
        `);
        await queryRunner.query(`
            DROP INDEX "cart_items_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "cart_items_cart_id_product_id"
        `);
        await queryRunner.query(`
            CREATE TABLE "temporary_cart_items" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "cart_id" varchar(36) NOT NULL,
                "product_id" varchar(36) NOT NULL,
                "quantity" integer NOT NULL,
                "unit_price_cents" integer NOT NULL,
                "line_total_cents" integer NOT NULL,
                CONSTRAINT "FK_6385a745d9e12a89b859bb25623" FOREIGN KEY ("cart_id") REFERENCES "carts" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "FK_30e89257a105eab7648a35c7fce" FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
        await queryRunner.query(`
            INSERT INTO "temporary_cart_items"(
                    "id",
                    "created_at",
                    "updated_at",
                    "cart_id",
                    "product_id",
                    "quantity",
                    "unit_price_cents",
                    "line_total_cents"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "cart_id",
                "product_id",
                "quantity",
                "unit_price_cents",
                "line_total_cents"
            FROM "cart_items"
        `);
        await queryRunner.query(`
            DROP TABLE "cart_items"
        `);
        await queryRunner.query(`
            ALTER TABLE "temporary_cart_items"
                RENAME TO "cart_items"
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_6385a745d9e12a89b859bb2562" ON "cart_items" ("cart_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_30e89257a105eab7648a35c7fc" ON "cart_items" ("product_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "cart_items_created_at_id" ON "cart_items" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "cart_items_cart_id_product_id" ON "cart_items" ("cart_id", "product_id")
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP INDEX "cart_items_cart_id_product_id"
        `);
        await queryRunner.query(`
            DROP INDEX "cart_items_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_30e89257a105eab7648a35c7fc"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_6385a745d9e12a89b859bb2562"
        `);
        await queryRunner.query(`
            ALTER TABLE "cart_items"
                RENAME TO "temporary_cart_items"
        `);
        await queryRunner.query(`
            CREATE TABLE "cart_items" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "cart_id" varchar(36) NOT NULL,
                "product_id" varchar(36) NOT NULL,
                "quantity" integer NOT NULL,
                "unit_price_cents" integer NOT NULL,
                "line_total_cents" integer NOT NULL
            )
        `);
        await queryRunner.query(`
            INSERT INTO "cart_items"(
                    "id",
                    "created_at",
                    "updated_at",
                    "cart_id",
                    "product_id",
                    "quantity",
                    "unit_price_cents",
                    "line_total_cents"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "cart_id",
                "product_id",
                "quantity",
                "unit_price_cents",
                "line_total_cents"
            FROM "temporary_cart_items"
        `);
        await queryRunner.query(`
            DROP TABLE "temporary_cart_items"
        `);
        await queryRunner.query(`
            CREATE INDEX "cart_items_cart_id_product_id" ON "cart_items" ("cart_id", "product_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "cart_items_created_at_id" ON "cart_items" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_30e89257a105eab7648a35c7fc" ON "cart_items" ("product_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_6385a745d9e12a89b859bb2562" ON "cart_items" ("cart_id")
        `);
        await queryRunner.query(`
            DROP INDEX "carts_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_2ec1c94a977b940d85a4f498ae"
        `);
        await queryRunner.query(`
            ALTER TABLE "carts"
                RENAME TO "temporary_carts"
        `);
        await queryRunner.query(`
            CREATE TABLE "carts" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "user_id" varchar(36) NOT NULL,
                "subtotal_cents" integer NOT NULL DEFAULT (0),
                "item_count" integer NOT NULL DEFAULT (0),
                "currency" varchar(3) NOT NULL DEFAULT ('EUR')
            )
        `);
        await queryRunner.query(`
            INSERT INTO "carts"(
                    "id",
                    "created_at",
                    "updated_at",
                    "user_id",
                    "subtotal_cents",
                    "item_count",
                    "currency"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "user_id",
                "subtotal_cents",
                "item_count",
                "currency"
            FROM "temporary_carts"
        `);
        await queryRunner.query(`
            DROP TABLE "temporary_carts"
        `);
        await queryRunner.query(`
            CREATE INDEX "carts_created_at_id" ON "carts" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_2ec1c94a977b940d85a4f498ae" ON "carts" ("user_id")
        `);
        await queryRunner.query(`
            DROP INDEX "sessions_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_085d540d9f418cfbdc7bd55bb1"
        `);
        await queryRunner.query(`
            ALTER TABLE "sessions"
                RENAME TO "temporary_sessions"
        `);
        await queryRunner.query(`
            CREATE TABLE "sessions" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "user_id" varchar(36) NOT NULL,
                "expires_at" datetime NOT NULL
            )
        `);
        await queryRunner.query(`
            INSERT INTO "sessions"(
                    "id",
                    "created_at",
                    "updated_at",
                    "user_id",
                    "expires_at"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "user_id",
                "expires_at"
            FROM "temporary_sessions"
        `);
        await queryRunner.query(`
            DROP TABLE "temporary_sessions"
        `);
        await queryRunner.query(`
            CREATE INDEX "sessions_created_at_id" ON "sessions" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_085d540d9f418cfbdc7bd55bb1" ON "sessions" ("user_id")
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
                "user_id" varchar(36) NOT NULL
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
            CREATE INDEX "orders_user_id_created_at_id" ON "orders" ("user_id", "created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "orders_created_at_id" ON "orders" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_a922b820eeef29ac1c6800e826" ON "orders" ("user_id")
        `);
        await queryRunner.query(`
            DROP INDEX "order_items_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_9263386c35b6b242540f9493b0"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_145532db85752b29c57d2b7b1f"
        `);
        await queryRunner.query(`
            ALTER TABLE "order_items"
                RENAME TO "temporary_order_items"
        `);
        await queryRunner.query(`
            CREATE TABLE "order_items" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "order_id" varchar(36) NOT NULL,
                "product_id" varchar(36) NOT NULL,
                "name" varchar(200) NOT NULL,
                "quantity" integer NOT NULL,
                "unit_price_cents" integer NOT NULL,
                "line_total_cents" integer NOT NULL
            )
        `);
        await queryRunner.query(`
            INSERT INTO "order_items"(
                    "id",
                    "created_at",
                    "updated_at",
                    "order_id",
                    "product_id",
                    "name",
                    "quantity",
                    "unit_price_cents",
                    "line_total_cents"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "order_id",
                "product_id",
                "name",
                "quantity",
                "unit_price_cents",
                "line_total_cents"
            FROM "temporary_order_items"
        `);
        await queryRunner.query(`
            DROP TABLE "temporary_order_items"
        `);
        await queryRunner.query(`
            CREATE INDEX "order_items_created_at_id" ON "order_items" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_9263386c35b6b242540f9493b0" ON "order_items" ("product_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_145532db85752b29c57d2b7b1f" ON "order_items" ("order_id")
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
                "stock" integer
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
            CREATE INDEX "product_revisions_product_id_revision" ON "product_revisions" ("product_id", "revision")
        `);
        await queryRunner.query(`
            CREATE INDEX "product_revisions_created_at_id" ON "product_revisions" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_49824575b2e3574af2dccab05e" ON "product_revisions" ("product_id")
        `);
        await queryRunner.query(`
            DROP INDEX "events_user_id_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "events_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_09f256fb7f9a05f0ed9927f406"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_9a318d170562abeb2decf0a0c0"
        `);
        await queryRunner.query(`
            DROP TABLE "events"
        `);
        await queryRunner.query(`
            DROP INDEX "cart_items_cart_id_product_id"
        `);
        await queryRunner.query(`
            DROP INDEX "cart_items_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_30e89257a105eab7648a35c7fc"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_6385a745d9e12a89b859bb2562"
        `);
        await queryRunner.query(`
            DROP TABLE "cart_items"
        `);
        await queryRunner.query(`
            DROP INDEX "carts_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_2ec1c94a977b940d85a4f498ae"
        `);
        await queryRunner.query(`
            DROP TABLE "carts"
        `);
        await queryRunner.query(`
            DROP INDEX "users_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_cbfb19ddc0218b26522f9fea2e"
        `);
        await queryRunner.query(`
            DROP TABLE "users"
        `);
        await queryRunner.query(`
            DROP INDEX "sessions_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_085d540d9f418cfbdc7bd55bb1"
        `);
        await queryRunner.query(`
            DROP TABLE "sessions"
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
            DROP TABLE "orders"
        `);
        await queryRunner.query(`
            DROP INDEX "order_items_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_9263386c35b6b242540f9493b0"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_145532db85752b29c57d2b7b1f"
        `);
        await queryRunner.query(`
            DROP TABLE "order_items"
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
            DROP TABLE "product_revisions"
        `);
        await queryRunner.query(`
            DROP INDEX "products_name_id"
        `);
        await queryRunner.query(`
            DROP INDEX "products_created_at_id"
        `);
        await queryRunner.query(`
            DROP TABLE "products"
        `);
    }

}
