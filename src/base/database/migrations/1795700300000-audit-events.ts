import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 22: the audit trail (src/audit). No foreign keys: records outlive what they name. */
export class AuditEvents1795700300000 implements MigrationInterface {
  name = 'AuditEvents1795700300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "audit_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "system_domain_id" uuid, "actor_user_id" uuid, "actor_app_id" uuid, "actor_kind" text, "action" text NOT NULL, "target_type" text, "target_id" text, "outcome" text NOT NULL, "request_id" text, "client_address" text, "details" jsonb NOT NULL, CONSTRAINT "PK_audit_events_id" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_audit_events_domain_created" ON "audit_events" ("system_domain_id", "date_created") ',
    );
    await queryRunner.query('CREATE INDEX "ix_audit_events_created" ON "audit_events" ("date_created") ');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."ix_audit_events_created"');
    await queryRunner.query('DROP INDEX "public"."ix_audit_events_domain_created"');
    await queryRunner.query('DROP TABLE "audit_events"');
  }
}
