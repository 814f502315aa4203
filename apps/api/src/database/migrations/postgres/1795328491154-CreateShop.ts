import { MigrationInterface, QueryRunner } from "typeorm";

export class CreateShop1795328491154 implements MigrationInterface {
    name = 'CreateShop1795328491154'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "products" (
                "id" character varying(36) NOT NULL,
                "created_at" TIMESTAMP NOT NULL,
                "updated_at" TIMESTAMP NOT NULL,
                "name" character varying(200) NOT NULL,
                "description" text,
                "price_cents" integer NOT NULL,
                "currency" character varying(3) NOT NULL DEFAULT 'EUR',
                "stock" integer NOT NULL,
                CONSTRAINT "PK_0806c755e0aca124e67c0cf6d7d" PRIMARY KEY ("id")
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
                "id" character varying(36) NOT NULL,
                "created_at" TIMESTAMP NOT NULL,
                "updated_at" TIMESTAMP NOT NULL,
                "product_id" character varying(36) NOT NULL,
                "revision" integer NOT NULL,
                "name" character varying(200),
                "description" text,
                "price_cents" integer,
                "currency" character varying(3),
                "stock" integer,
                CONSTRAINT "PK_502f17dcba65e92c4f40d8a93b7" PRIMARY KEY ("id")
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
                "id" character varying(36) NOT NULL,
                "created_at" TIMESTAMP NOT NULL,
                "updated_at" TIMESTAMP NOT NULL,
                "order_id" character varying(36) NOT NULL,
                "product_id" character varying(36) NOT NULL,
                "name" character varying(200) NOT NULL,
                "quantity" integer NOT NULL,
                "unit_price_cents" integer NOT NULL,
                "line_total_cents" integer NOT NULL,
                CONSTRAINT "PK_005269d8574e6fac0493715c308" PRIMARY KEY ("id")
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
                "id" character varying(36) NOT NULL,
                "created_at" TIMESTAMP NOT NULL,
                "updated_at" TIMESTAMP NOT NULL,
                "status" character varying(9) NOT NULL DEFAULT 'placed',
                "total_cents" integer NOT NULL,
                "item_count" integer NOT NULL,
                "currency" character varying(3) NOT NULL,
                "requested_delivery_date" date,
                "user_id" character varying(36) NOT NULL,
                CONSTRAINT "PK_710e2d4957aa5878dfe94e4ac2f" PRIMARY KEY ("id")
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
                "id" character varying(36) NOT NULL,
                "created_at" TIMESTAMP NOT NULL,
                "updated_at" TIMESTAMP NOT NULL,
                "user_id" character varying(36) NOT NULL,
                "expires_at" TIMESTAMP NOT NULL,
                CONSTRAINT "PK_3238ef96f18b355b671619111bc" PRIMARY KEY ("id")
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
                "id" character varying(36) NOT NULL,
                "created_at" TIMESTAMP NOT NULL,
                "updated_at" TIMESTAMP NOT NULL,
                "email" character varying(254) NOT NULL,
                "email_key" character varying(254) NOT NULL,
                "name" character varying(200) NOT NULL,
                "password_hash" character varying(200) NOT NULL,
                "birth_date" date,
                "role" character varying(8) NOT NULL DEFAULT 'customer',
                "cart_id" character varying(36) NOT NULL,
                CONSTRAINT "UQ_d87b0da10cbb5c0bdb73164f480" UNIQUE ("email_key"),
                CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id")
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
                "id" character varying(36) NOT NULL,
                "created_at" TIMESTAMP NOT NULL,
                "updated_at" TIMESTAMP NOT NULL,
                "user_id" character varying(36) NOT NULL,
                "subtotal_cents" integer NOT NULL DEFAULT '0',
                "item_count" integer NOT NULL DEFAULT '0',
                "currency" character varying(3) NOT NULL DEFAULT 'EUR',
                CONSTRAINT "PK_b5f695a59f5ebb50af3c8160816" PRIMARY KEY ("id")
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
                "id" character varying(36) NOT NULL,
                "created_at" TIMESTAMP NOT NULL,
                "updated_at" TIMESTAMP NOT NULL,
                "cart_id" character varying(36) NOT NULL,
                "product_id" character varying(36) NOT NULL,
                "quantity" integer NOT NULL,
                "unit_price_cents" integer NOT NULL,
                "line_total_cents" integer NOT NULL,
                CONSTRAINT "PK_6fccf5ec03c172d27a28a82928b" PRIMARY KEY ("id")
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
                "id" character varying(36) NOT NULL,
                "created_at" TIMESTAMP NOT NULL,
                "updated_at" TIMESTAMP NOT NULL,
                "action" character varying(7) NOT NULL,
                "subject_type" character varying(100) NOT NULL,
                "subject_id" character varying(36) NOT NULL,
                "user_id" character varying(36) NOT NULL,
                "occurred_at" TIMESTAMP NOT NULL,
                CONSTRAINT "PK_40731c7151fe4be3116e45ddf73" PRIMARY KEY ("id")
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
            ALTER TABLE "product_revisions"
            ADD CONSTRAINT "FK_49824575b2e3574af2dccab05ee" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "order_items"
            ADD CONSTRAINT "FK_145532db85752b29c57d2b7b1f1" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "order_items"
            ADD CONSTRAINT "FK_9263386c35b6b242540f9493b00" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "orders"
            ADD CONSTRAINT "FK_a922b820eeef29ac1c6800e826a" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "sessions"
            ADD CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "carts"
            ADD CONSTRAINT "FK_2ec1c94a977b940d85a4f498aea" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "cart_items"
            ADD CONSTRAINT "FK_6385a745d9e12a89b859bb25623" FOREIGN KEY ("cart_id") REFERENCES "carts"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "cart_items"
            ADD CONSTRAINT "FK_30e89257a105eab7648a35c7fce" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "cart_items" DROP CONSTRAINT "FK_30e89257a105eab7648a35c7fce"
        `);
        await queryRunner.query(`
            ALTER TABLE "cart_items" DROP CONSTRAINT "FK_6385a745d9e12a89b859bb25623"
        `);
        await queryRunner.query(`
            ALTER TABLE "carts" DROP CONSTRAINT "FK_2ec1c94a977b940d85a4f498aea"
        `);
        await queryRunner.query(`
            ALTER TABLE "sessions" DROP CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19"
        `);
        await queryRunner.query(`
            ALTER TABLE "orders" DROP CONSTRAINT "FK_a922b820eeef29ac1c6800e826a"
        `);
        await queryRunner.query(`
            ALTER TABLE "order_items" DROP CONSTRAINT "FK_9263386c35b6b242540f9493b00"
        `);
        await queryRunner.query(`
            ALTER TABLE "order_items" DROP CONSTRAINT "FK_145532db85752b29c57d2b7b1f1"
        `);
        await queryRunner.query(`
            ALTER TABLE "product_revisions" DROP CONSTRAINT "FK_49824575b2e3574af2dccab05ee"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."events_user_id_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."events_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."IDX_09f256fb7f9a05f0ed9927f406"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."IDX_9a318d170562abeb2decf0a0c0"
        `);
        await queryRunner.query(`
            DROP TABLE "events"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."cart_items_cart_id_product_id"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."cart_items_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."IDX_30e89257a105eab7648a35c7fc"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."IDX_6385a745d9e12a89b859bb2562"
        `);
        await queryRunner.query(`
            DROP TABLE "cart_items"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."carts_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."IDX_2ec1c94a977b940d85a4f498ae"
        `);
        await queryRunner.query(`
            DROP TABLE "carts"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."users_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."IDX_cbfb19ddc0218b26522f9fea2e"
        `);
        await queryRunner.query(`
            DROP TABLE "users"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."sessions_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."IDX_085d540d9f418cfbdc7bd55bb1"
        `);
        await queryRunner.query(`
            DROP TABLE "sessions"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."orders_user_id_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."orders_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."IDX_a922b820eeef29ac1c6800e826"
        `);
        await queryRunner.query(`
            DROP TABLE "orders"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."order_items_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."IDX_9263386c35b6b242540f9493b0"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."IDX_145532db85752b29c57d2b7b1f"
        `);
        await queryRunner.query(`
            DROP TABLE "order_items"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."product_revisions_product_id_revision"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."product_revisions_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."IDX_49824575b2e3574af2dccab05e"
        `);
        await queryRunner.query(`
            DROP TABLE "product_revisions"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."products_name_id"
        `);
        await queryRunner.query(`
            DROP INDEX "gen_migrations"."products_created_at_id"
        `);
        await queryRunner.query(`
            DROP TABLE "products"
        `);
    }

}
