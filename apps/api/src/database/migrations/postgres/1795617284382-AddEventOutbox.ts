import { MigrationInterface, QueryRunner } from "typeorm";

// The outbox of published events; written by hand, as the entity says why (OutboxEntry).
export class AddEventOutbox1795617284382 implements MigrationInterface {
    name = 'AddEventOutbox1795617284382'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "event_outbox" (
                "position" BIGSERIAL NOT NULL,
                "event_id" character varying(36) NOT NULL,
                "subject" character varying(255) NOT NULL,
                "body" text NOT NULL,
                "recorded_at" TIMESTAMP NOT NULL,
                CONSTRAINT "PK_32e03b0dd23bc8d10034c777286" PRIMARY KEY ("position")
            )
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP TABLE "event_outbox"
        `);
    }

}
