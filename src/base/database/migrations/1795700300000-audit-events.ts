import { SqlMigration } from '../sql-migration.js';

/** Issue 22: the audit trail (src/audit). No foreign keys: records outlive what they name. */
export class AuditEvents1795700300000 extends SqlMigration {
  name = 'AuditEvents1795700300000';

  protected readonly upStatements = [
    'CREATE TABLE "audit_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "system_domain_id" uuid, "actor_user_id" uuid, "actor_app_id" uuid, "actor_kind" text, "action" text NOT NULL, "target_type" text, "target_id" text, "outcome" text NOT NULL, "request_id" text, "client_address" text, "details" jsonb NOT NULL, CONSTRAINT "PK_audit_events_id" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_audit_events_domain_created" ON "audit_events" ("system_domain_id", "date_created") ',
    'CREATE INDEX "ix_audit_events_created" ON "audit_events" ("date_created") ',
  ];

  protected readonly downStatements = [
    'DROP INDEX "public"."ix_audit_events_created"',
    'DROP INDEX "public"."ix_audit_events_domain_created"',
    'DROP TABLE "audit_events"',
  ];
}
