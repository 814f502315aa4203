import { MigrationInterface, QueryRunner } from "typeorm";

export class AdminOnlyMembers1795718877987 implements MigrationInterface {
    name = 'AdminOnlyMembers1795718877987'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "products"
            ADD "cost_cents" integer
        `);
        await queryRunner.query(`
            ALTER TABLE "product_revisions"
            ADD "cost_cents" integer
        `);
        await queryRunner.query(`
            ALTER TABLE "orders"
            ADD "admin_note" text
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "orders" DROP COLUMN "admin_note"
        `);
        await queryRunner.query(`
            ALTER TABLE "product_revisions" DROP COLUMN "cost_cents"
        `);
        await queryRunner.query(`
            ALTER TABLE "products" DROP COLUMN "cost_cents"
        `);
    }

}
