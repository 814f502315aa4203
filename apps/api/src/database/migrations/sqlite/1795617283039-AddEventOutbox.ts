import { MigrationInterface, QueryRunner } from "typeorm";

// The outbox of published events; written by hand, as the entity says why (OutboxEntry).
export class AddEventOutbox1795617283039 implements MigrationInterface {
    name = 'AddEventOutbox1795617283039'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "event_outbox" (
                "position" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "event_id" varchar(36) NOT NULL,
                "subject" varchar(255) NOT NULL,
                "body" text NOT NULL,
                "recorded_at" datetime NOT NULL
            )
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP TABLE "event_outbox"
        `);
    }

}
