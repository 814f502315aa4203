import { MigrationInterface, QueryRunner } from "typeorm";

// The event publication registry; written by hand, as the entity says why (EventPublication).
export class AddEventPublications1795878568985 implements MigrationInterface {
    name = 'AddEventPublications1795878568985'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "event_publications" (
                "position" BIGSERIAL NOT NULL,
                "event_id" character varying(36) NOT NULL,
                "listener" character varying(200) NOT NULL,
                "action" character varying(16) NOT NULL,
                "subject_type" character varying(64) NOT NULL,
                "subject_id" character varying(36) NOT NULL,
                "recorded_at" TIMESTAMP NOT NULL,
                "attempts" integer NOT NULL DEFAULT 0,
                "next_attempt_at" TIMESTAMP,
                "last_error" text,
                "completed_at" TIMESTAMP,
                CONSTRAINT "PK_event_publications" PRIMARY KEY ("position")
            )
        `);
        // The rounds read the incomplete rows alone: in order, and each one's earlier ones.
        await queryRunner.query(`
            CREATE INDEX "event_publications_incomplete" ON "event_publications" ("position")
            WHERE "completed_at" IS NULL
        `);
        await queryRunner.query(`
            CREATE INDEX "event_publications_incomplete_by_subject" ON "event_publications"
            ("listener", "subject_type", "subject_id", "position") WHERE "completed_at" IS NULL
        `);
        await queryRunner.query(`
            CREATE INDEX "event_publications_completed_at" ON "event_publications" ("completed_at")
            WHERE "completed_at" IS NOT NULL
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP TABLE "event_publications"
        `);
    }

}
