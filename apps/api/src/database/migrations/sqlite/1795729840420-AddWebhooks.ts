import { MigrationInterface, QueryRunner } from "typeorm";

// The webhook endpoints and deliveries; the webhook outbox is written by hand, as its entity
// says why (WebhookOutboxEntry).
export class AddWebhooks1795729840420 implements MigrationInterface {
    name = 'AddWebhooks1795729840420'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "webhook_endpoints" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "url" text NOT NULL,
                "subject_type" varchar(64),
                "action" varchar(7),
                "status" varchar(8) NOT NULL,
                "secret" varchar(64) NOT NULL,
                "description" text,
                "failing_since" datetime
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "webhook_endpoints_created_at_id" ON "webhook_endpoints" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "webhook_endpoints_updated_at_id" ON "webhook_endpoints" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE TABLE "webhook_deliveries" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "webhook_endpoint_id" varchar(36) NOT NULL,
                "event_id" varchar(36) NOT NULL,
                "attempt" integer NOT NULL,
                "status" varchar(9) NOT NULL,
                "response_status" integer,
                "duration_ms" integer,
                "next_attempt_at" datetime,
                "position" bigint NOT NULL,
                "payload" text NOT NULL,
                "leased_until" datetime,
                "trace_parent" varchar(55)
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_ebc7f6ebad5d665588d12549c6" ON "webhook_deliveries" ("webhook_endpoint_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_27d1ee90033bdafe0ffe8f1be6" ON "webhook_deliveries" ("event_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_153c89d32cd2320d7defde536d" ON "webhook_deliveries" ("webhook_endpoint_id", "status", "position")
        `);
        await queryRunner.query(`
            CREATE INDEX "webhook_deliveries_created_at_id" ON "webhook_deliveries" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "webhook_deliveries_updated_at_id" ON "webhook_deliveries" ("updated_at", "id")
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_ebc7f6ebad5d665588d12549c6"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_27d1ee90033bdafe0ffe8f1be6"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_153c89d32cd2320d7defde536d"
        `);
        await queryRunner.query(`
            DROP INDEX "webhook_deliveries_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "webhook_deliveries_updated_at_id"
        `);
        await queryRunner.query(`
            CREATE TABLE "temporary_webhook_deliveries" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "webhook_endpoint_id" varchar(36) NOT NULL,
                "event_id" varchar(36) NOT NULL,
                "attempt" integer NOT NULL,
                "status" varchar(9) NOT NULL,
                "response_status" integer,
                "duration_ms" integer,
                "next_attempt_at" datetime,
                "position" bigint NOT NULL,
                "payload" text NOT NULL,
                "leased_until" datetime,
                "trace_parent" varchar(55),
                CONSTRAINT "FK_ebc7f6ebad5d665588d12549c68" FOREIGN KEY ("webhook_endpoint_id") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "events" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
            )
        `);
        await queryRunner.query(`
            INSERT INTO "temporary_webhook_deliveries"(
                    "id",
                    "created_at",
                    "updated_at",
                    "webhook_endpoint_id",
                    "event_id",
                    "attempt",
                    "status",
                    "response_status",
                    "duration_ms",
                    "next_attempt_at",
                    "position",
                    "payload",
                    "leased_until",
                    "trace_parent"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "webhook_endpoint_id",
                "event_id",
                "attempt",
                "status",
                "response_status",
                "duration_ms",
                "next_attempt_at",
                "position",
                "payload",
                "leased_until",
                "trace_parent"
            FROM "webhook_deliveries"
        `);
        await queryRunner.query(`
            DROP TABLE "webhook_deliveries"
        `);
        await queryRunner.query(`
            ALTER TABLE "temporary_webhook_deliveries"
                RENAME TO "webhook_deliveries"
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_ebc7f6ebad5d665588d12549c6" ON "webhook_deliveries" ("webhook_endpoint_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_27d1ee90033bdafe0ffe8f1be6" ON "webhook_deliveries" ("event_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_153c89d32cd2320d7defde536d" ON "webhook_deliveries" ("webhook_endpoint_id", "status", "position")
        `);
        await queryRunner.query(`
            CREATE INDEX "webhook_deliveries_created_at_id" ON "webhook_deliveries" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "webhook_deliveries_updated_at_id" ON "webhook_deliveries" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE TABLE "webhook_outbox" (
                "position" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "event_id" varchar(36) NOT NULL,
                "subject_type" varchar(64) NOT NULL,
                "action" varchar(16) NOT NULL,
                "body" text NOT NULL,
                "recorded_at" datetime NOT NULL,
                "trace_parent" varchar(55)
            )
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP TABLE "webhook_outbox"
        `);
        await queryRunner.query(`
            DROP INDEX "webhook_deliveries_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "webhook_deliveries_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_153c89d32cd2320d7defde536d"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_27d1ee90033bdafe0ffe8f1be6"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_ebc7f6ebad5d665588d12549c6"
        `);
        await queryRunner.query(`
            ALTER TABLE "webhook_deliveries"
                RENAME TO "temporary_webhook_deliveries"
        `);
        await queryRunner.query(`
            CREATE TABLE "webhook_deliveries" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "webhook_endpoint_id" varchar(36) NOT NULL,
                "event_id" varchar(36) NOT NULL,
                "attempt" integer NOT NULL,
                "status" varchar(9) NOT NULL,
                "response_status" integer,
                "duration_ms" integer,
                "next_attempt_at" datetime,
                "position" bigint NOT NULL,
                "payload" text NOT NULL,
                "leased_until" datetime,
                "trace_parent" varchar(55)
            )
        `);
        await queryRunner.query(`
            INSERT INTO "webhook_deliveries"(
                    "id",
                    "created_at",
                    "updated_at",
                    "webhook_endpoint_id",
                    "event_id",
                    "attempt",
                    "status",
                    "response_status",
                    "duration_ms",
                    "next_attempt_at",
                    "position",
                    "payload",
                    "leased_until",
                    "trace_parent"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "webhook_endpoint_id",
                "event_id",
                "attempt",
                "status",
                "response_status",
                "duration_ms",
                "next_attempt_at",
                "position",
                "payload",
                "leased_until",
                "trace_parent"
            FROM "temporary_webhook_deliveries"
        `);
        await queryRunner.query(`
            DROP TABLE "temporary_webhook_deliveries"
        `);
        await queryRunner.query(`
            CREATE INDEX "webhook_deliveries_updated_at_id" ON "webhook_deliveries" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "webhook_deliveries_created_at_id" ON "webhook_deliveries" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_153c89d32cd2320d7defde536d" ON "webhook_deliveries" ("webhook_endpoint_id", "status", "position")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_27d1ee90033bdafe0ffe8f1be6" ON "webhook_deliveries" ("event_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_ebc7f6ebad5d665588d12549c6" ON "webhook_deliveries" ("webhook_endpoint_id")
        `);
        await queryRunner.query(`
            DROP INDEX "webhook_deliveries_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "webhook_deliveries_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_153c89d32cd2320d7defde536d"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_27d1ee90033bdafe0ffe8f1be6"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_ebc7f6ebad5d665588d12549c6"
        `);
        await queryRunner.query(`
            DROP TABLE "webhook_deliveries"
        `);
        await queryRunner.query(`
            DROP INDEX "webhook_endpoints_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "webhook_endpoints_created_at_id"
        `);
        await queryRunner.query(`
            DROP TABLE "webhook_endpoints"
        `);
    }

}
