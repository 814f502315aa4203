import { MigrationInterface, QueryRunner } from "typeorm";

export class CreateUsersAndSessions1795327694547 implements MigrationInterface {
    name = 'CreateUsersAndSessions1795327694547'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "users" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "email" varchar(254) NOT NULL,
                "email_key" varchar(254) NOT NULL,
                "name" varchar(200) NOT NULL,
                "password_hash" varchar(200) NOT NULL,
                "birth_date" date,
                "role" varchar(8) NOT NULL DEFAULT ('customer'),
                CONSTRAINT "UQ_d87b0da10cbb5c0bdb73164f480" UNIQUE ("email_key")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "users_created_at_id" ON "users" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE TABLE "sessions" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "user_id" varchar(36) NOT NULL,
                "expires_at" datetime NOT NULL
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_085d540d9f418cfbdc7bd55bb1" ON "sessions" ("user_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "sessions_created_at_id" ON "sessions" ("created_at", "id")
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_085d540d9f418cfbdc7bd55bb1"
        `);
        await queryRunner.query(`
            DROP INDEX "sessions_created_at_id"
        `);
        await queryRunner.query(`
            CREATE TABLE "temporary_sessions" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "user_id" varchar(36) NOT NULL,
                "expires_at" datetime NOT NULL,
                CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
        await queryRunner.query(`
            INSERT INTO "temporary_sessions"(
                    "id",
                    "created_at",
                    "updated_at",
                    "user_id",
                    "expires_at"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "user_id",
                "expires_at"
            FROM "sessions"
        `);
        await queryRunner.query(`
            DROP TABLE "sessions"
        `);
        await queryRunner.query(`
            ALTER TABLE "temporary_sessions"
                RENAME TO "sessions"
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_085d540d9f418cfbdc7bd55bb1" ON "sessions" ("user_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "sessions_created_at_id" ON "sessions" ("created_at", "id")
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP INDEX "sessions_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_085d540d9f418cfbdc7bd55bb1"
        `);
        await queryRunner.query(`
            ALTER TABLE "sessions"
                RENAME TO "temporary_sessions"
        `);
        await queryRunner.query(`
            CREATE TABLE "sessions" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "created_at" datetime NOT NULL,
                "updated_at" datetime NOT NULL,
                "user_id" varchar(36) NOT NULL,
                "expires_at" datetime NOT NULL
            )
        `);
        await queryRunner.query(`
            INSERT INTO "sessions"(
                    "id",
                    "created_at",
                    "updated_at",
                    "user_id",
                    "expires_at"
                )
            SELECT "id",
                "created_at",
                "updated_at",
                "user_id",
                "expires_at"
            FROM "temporary_sessions"
        `);
        await queryRunner.query(`
            DROP TABLE "temporary_sessions"
        `);
        await queryRunner.query(`
            CREATE INDEX "sessions_created_at_id" ON "sessions" ("created_at", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_085d540d9f418cfbdc7bd55bb1" ON "sessions" ("user_id")
        `);
        await queryRunner.query(`
            DROP INDEX "sessions_created_at_id"
        `);
        await queryRunner.query(`
            DROP INDEX "IDX_085d540d9f418cfbdc7bd55bb1"
        `);
        await queryRunner.query(`
            DROP TABLE "sessions"
        `);
        await queryRunner.query(`
            DROP INDEX "users_created_at_id"
        `);
        await queryRunner.query(`
            DROP TABLE "users"
        `);
    }

}
