import { MigrationInterface, QueryRunner } from "typeorm";

// The webhook endpoints and deliveries; the webhook outbox is written by hand, as its entity
// says why (WebhookOutboxEntry).
export class AddWebhooks1795729850622 implements MigrationInterface {
    name = 'AddWebhooks1795729850622'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "webhook_endpoints" (
                "id" character varying(36) NOT NULL,
                "created_at" TIMESTAMP NOT NULL,
                "updated_at" TIMESTAMP NOT NULL,
                "url" text NOT NULL,
                "subject_type" character varying(64),
                "action" character varying(7),
                "status" character varying(8) NOT NULL,
                "secret" character varying(64) NOT NULL,
                "description" text,
                "failing_since" TIMESTAMP,
                CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id")
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
                "id" character varying(36) NOT NULL,
                "created_at" TIMESTAMP NOT NULL,
                "updated_at" TIMESTAMP NOT NULL,
                "webhook_endpoint_id" character varying(36) NOT NULL,
                "event_id" character varying(36) NOT NULL,
                "attempt" integer NOT NULL,
                "status" character varying(9) NOT NULL,
                "response_status" integer,
                "duration_ms" integer,
                "next_attempt_at" TIMESTAMP,
                "position" bigint NOT NULL,
                "payload" text NOT NULL,
                "leased_until" TIMESTAMP,
                "trace_parent" character varying(55),
                CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id")
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
            ALTER TABLE "webhook_deliveries"
            ADD CONSTRAINT "FK_ebc7f6ebad5d665588d12549c68" FOREIGN KEY ("webhook_endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "webhook_deliveries"
            ADD CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE RESTRICT ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            CREATE TABLE "webhook_outbox" (
                "position" BIGSERIAL NOT NULL,
                "event_id" character varying(36) NOT NULL,
                "subject_type" character varying(64) NOT NULL,
                "action" character varying(16) NOT NULL,
                "body" text NOT NULL,
                "recorded_at" TIMESTAMP NOT NULL,
                "trace_parent" character varying(55),
                CONSTRAINT "PK_webhook_outbox" PRIMARY KEY ("position")
            )
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP TABLE "webhook_outbox"
        `);
        await queryRunner.query(`
            ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f"
        `);
        await queryRunner.query(`
            ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_ebc7f6ebad5d665588d12549c68"
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
