import { MigrationInterface, QueryRunner } from "typeorm";

export class EventsOfTenants1795765603809 implements MigrationInterface {
    name = 'EventsOfTenants1795765603809'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP INDEX "events_updated_at_id"
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
            CREATE TABLE "temporary_events" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "action" varchar(7) NOT NULL,
                "subject_type" varchar(100) NOT NULL,
                "subject_id" varchar(36) NOT NULL,
                "user_id" varchar(36) NOT NULL,
                "occurred_at" datetime NOT NULL,
                "tenant_id" varchar(64)
            )
        `);
        await queryRunner.query(`
            INSERT INTO "temporary_events"(
                    "id",
                    "created_at",
                    "updated_at",
                    "action",
                    "subject_type",
                    "subject_id",
                    "user_id",
                    "occurred_at"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "action",
                "subject_type",
                "subject_id",
                "user_id",
                "occurred_at"
            FROM "events"
        `);
        await queryRunner.query(`
            DROP TABLE "events"
        `);
        await queryRunner.query(`
            ALTER TABLE "temporary_events"
                RENAME TO "events"
        `);
        await queryRunner.query(`
            CREATE INDEX "events_updated_at_id" ON "events" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "events_user_id_created_at_id" ON "events" ("user_id", "created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "events_created_at_id" ON "events" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_09f256fb7f9a05f0ed9927f406" ON "events" ("user_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_9a318d170562abeb2decf0a0c0" ON "events" ("subject_type", "subject_id")
        `);
        await queryRunner.query(`
            DROP INDEX "webhook_endpoints_updated_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "webhook_endpoints_created_at_id"
        `);
        await queryRunner.query(`
            CREATE TABLE "temporary_webhook_endpoints" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "url" text NOT NULL,
                "subject_type" varchar(64),
                "action" varchar(7),
                "status" varchar(8) NOT NULL,
                "secret" varchar(64) NOT NULL,
                "description" text,
                "failing_since" datetime,
                "tenant_id" varchar(64)
            )
        `);
        await queryRunner.query(`
            INSERT INTO "temporary_webhook_endpoints"(
                    "id",
                    "created_at",
                    "updated_at",
                    "url",
                    "subject_type",
                    "action",
                    "status",
                    "secret",
                    "description",
                    "failing_since"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "url",
                "subject_type",
                "action",
                "status",
                "secret",
                "description",
                "failing_since"
            FROM "webhook_endpoints"
        `);
        await queryRunner.query(`
            DROP TABLE "webhook_endpoints"
        `);
        await queryRunner.query(`
            ALTER TABLE "temporary_webhook_endpoints"
                RENAME TO "webhook_endpoints"
        `);
        await queryRunner.query(`
            CREATE INDEX "webhook_endpoints_updated_at_id" ON "webhook_endpoints" ("updated_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "webhook_endpoints_created_at_id" ON "webhook_endpoints" ("created_at", "id")
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
                "tenant_id" varchar(64),
                CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "events" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
                CONSTRAINT "FK_ebc7f6ebad5d665588d12549c68" FOREIGN KEY ("webhook_endpoint_id") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
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
        // Written by hand, as the outboxes' migrations are (their entities are not synchronized):
        // the webhook outbox keeps each event's tenant, and a tenant's NATS subject may be long.
        await queryRunner.query(`
            ALTER TABLE "webhook_outbox"
            ADD "tenant_id" varchar(64)
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "webhook_outbox" DROP COLUMN "tenant_id"
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
                "trace_parent" varchar(55),
                CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "events" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
                CONSTRAINT "FK_ebc7f6ebad5d665588d12549c68" FOREIGN KEY ("webhook_endpoint_id") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
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
            DROP INDEX "webhook_endpoints_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "webhook_endpoints_updated_at_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "webhook_endpoints"
                RENAME TO "temporary_webhook_endpoints"
        `);
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
            INSERT INTO "webhook_endpoints"(
                    "id",
                    "created_at",
                    "updated_at",
                    "url",
                    "subject_type",
                    "action",
                    "status",
                    "secret",
                    "description",
                    "failing_since"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "url",
                "subject_type",
                "action",
                "status",
                "secret",
                "description",
                "failing_since"
            FROM "temporary_webhook_endpoints"
        `);
        await queryRunner.query(`
            DROP TABLE "temporary_webhook_endpoints"
        `);
        await queryRunner.query(`
            CREATE INDEX "webhook_endpoints_created_at_id" ON "webhook_endpoints" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "webhook_endpoints_updated_at_id" ON "webhook_endpoints" ("updated_at", "id")
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_9a318d170562abeb2decf0a0c0"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_09f256fb7f9a05f0ed9927f406"
        `);
        await queryRunner.query(`
            DROP INDEX "events_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "events_user_id_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "events_updated_at_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "events"
                RENAME TO "temporary_events"
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
            INSERT INTO "events"(
                    "id",
                    "created_at",
                    "updated_at",
                    "action",
                    "subject_type",
                    "subject_id",
                    "user_id",
                    "occurred_at"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "action",
                "subject_type",
                "subject_id",
                "user_id",
                "occurred_at"
            FROM "temporary_events"
        `);
        await queryRunner.query(`
            DROP TABLE "temporary_events"
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
            CREATE INDEX "events_updated_at_id" ON "events" ("updated_at", "id")
        `);
    }

}
