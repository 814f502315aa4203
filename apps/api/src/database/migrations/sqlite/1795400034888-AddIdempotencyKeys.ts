import { MigrationInterface, QueryRunner } from "typeorm";

export class AddIdempotencyKeys1795400034888 implements MigrationInterface {
    name = 'AddIdempotencyKeys1795400034888'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "idempotency_keys" (
                "scope" varchar(300) NOT NULL,
                "key" varchar(255) NOT NULL,
                "path" varchar(255) NOT NULL,
                "fingerprint" varchar(64) NOT NULL,
                "claim" varchar(36) NOT NULL,
                "locked_until" datetime,
                "status" integer,
                "body" text,
                "resource_id" varchar(36),
                "expires_at" datetime NOT NULL,
                PRIMARY KEY ("scope", "key")
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
