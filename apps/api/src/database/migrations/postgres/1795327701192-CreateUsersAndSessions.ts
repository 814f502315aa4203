import { MigrationInterface, QueryRunner } from "typeorm";

export class CreateUsersAndSessions1795327701192 implements MigrationInterface {
    name = 'CreateUsersAndSessions1795327701192'

    public async up(queryRunner: QueryRunner): Promise<void> {
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
                CONSTRAINT "UQ_d87b0da10cbb5c0bdb73164f480" UNIQUE ("email_key"),
                CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "users_created_at_id" ON "users" ("created_at", "id")
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
            ALTER TABLE "sessions"
            ADD CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "sessions" DROP CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19"
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
            DROP INDEX "gen_migrations"."users_created_at_id"
        `);
        await queryRunner.query(`
            DROP TABLE "users"
        `);
    }

}
