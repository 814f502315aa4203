import { MigrationInterface, QueryRunner } from "typeorm";

export class EventsOfTenants1795765609480 implements MigrationInterface {
    name = 'EventsOfTenants1795765609480'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "events"
            ADD "tenant_id" character varying(64)
        `);
        await queryRunner.query(`
            ALTER TABLE "webhook_endpoints"
            ADD "tenant_id" character varying(64)
        `);
        await queryRunner.query(`
            ALTER TABLE "webhook_deliveries"
            ADD "tenant_id" character varying(64)
        `);
        // Written by hand, as the outboxes' migrations are (their entities are not synchronized):
        // the webhook outbox keeps each event's tenant, and a tenant's NATS subject may be long.
        await queryRunner.query(`
            ALTER TABLE "webhook_outbox"
            ADD "tenant_id" character varying(64)
        `);
        await queryRunner.query(`
            ALTER TABLE "event_outbox"
            ALTER COLUMN "subject" TYPE character varying(1024)
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "event_outbox"
            ALTER COLUMN "subject" TYPE character varying(255)
        `);
        await queryRunner.query(`
            ALTER TABLE "webhook_outbox" DROP COLUMN "tenant_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "webhook_deliveries" DROP COLUMN "tenant_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "webhook_endpoints" DROP COLUMN "tenant_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "events" DROP COLUMN "tenant_id"
        `);
    }

}
