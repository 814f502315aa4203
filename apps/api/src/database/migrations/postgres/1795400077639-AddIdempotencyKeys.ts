import { MigrationInterface, QueryRunner } from "typeorm";

export class AddIdempotencyKeys1795400077639 implements MigrationInterface {
    name = 'AddIdempotencyKeys1795400077639'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "idempotency_keys" (
                "scope" character varying(300) NOT NULL,
                "key" character varying(255) NOT NULL,
                "path" character varying(255) NOT NULL,
                "fingerprint" character varying(64) NOT NULL,
                "claim" character varying(36) NOT NULL,
                "locked_until" TIMESTAMP,
                "status" integer,
                "body" text,
                "resource_id" character varying(36),
                "expires_at" TIMESTAMP NOT NULL,
                CONSTRAINT "PK_15de2f76fa9f27ad8f330983607" PRIMARY KEY ("scope", "key")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "idempotency_keys_resource_id" ON "idempotency_keys" ("resource_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "idempotency_keys_expires_at" ON "idempotency_keys" ("expires_at")
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP INDEX "idempotency_keys_expires_at"
        `);
        await queryRunner.query(`
            DROP INDEX "idempotency_keys_resource_id"
        `);
        await queryRunner.query(`
            DROP TABLE "idempotency_keys"
        `);
    }

}
