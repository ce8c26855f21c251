import { SqlMigration } from '../sql-migration.js';

/**
 * Webhooks (issue 12): the subscriptions (secret and extra headers sealed), the transactional outbox of
 * events, and the deliveries (the worker's queue and each webhook's delivery log).
 */
export class Webhooks1795264200000 extends SqlMigration {
  name = 'Webhooks1795264200000';

  protected readonly upStatements = [
    'CREATE TABLE "webhook_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "object_id" uuid, "realm" text, "operation" text NOT NULL, "event_type" text NOT NULL, "request_id" text, "data" jsonb NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4cba37e6a0acb5e1fc49c34ebfd" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_webhook_events_created" ON "webhook_events" ("date_created")',
    'CREATE TABLE "webhooks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "url" text NOT NULL, "event_type" text NOT NULL, "operation" text, "realm" text, "object_id" uuid, "status" text NOT NULL DEFAULT \'ENABLED\', "name" text, "description" text, "query" jsonb, "headers_sealed" text, "secret_sealed" text NOT NULL, "last_error" text, "last_payload" jsonb, "first_failed_at" TIMESTAMP WITH TIME ZONE, "consecutive_failures" integer NOT NULL DEFAULT \'0\', "deleted_at" TIMESTAMP WITH TIME ZONE, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9e8795cfc899ab7bdaa831e8527" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_webhooks_match" ON "webhooks" ("system_domain_id", "event_type")',
    'CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "webhook_id" uuid NOT NULL, "event_id" uuid NOT NULL, "status" text NOT NULL DEFAULT \'PENDING\', "attempts" integer NOT NULL DEFAULT \'0\', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE, "queued_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_attempt_at" TIMESTAMP WITH TIME ZONE, "response_code" integer, "duration_ms" integer, "error" text, "delivered_at" TIMESTAMP WITH TIME ZONE, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_webhook_deliveries_event" ON "webhook_deliveries" ("event_id")',
    'CREATE INDEX "ix_webhook_deliveries_webhook" ON "webhook_deliveries" ("webhook_id", "date_created")',
    'CREATE INDEX "ix_webhook_deliveries_due" ON "webhook_deliveries" ("status", "next_attempt_at")',
    'ALTER TABLE "webhook_events" ADD CONSTRAINT "FK_c2375966eabb42faa05ab34a5fe" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "webhooks" ADD CONSTRAINT "FK_515e0e78363a0c70600e72de642" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f"',
    'ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2"',
    'ALTER TABLE "webhooks" DROP CONSTRAINT "FK_515e0e78363a0c70600e72de642"',
    'ALTER TABLE "webhook_events" DROP CONSTRAINT "FK_c2375966eabb42faa05ab34a5fe"',
    'DROP INDEX "public"."ix_webhook_deliveries_due"',
    'DROP INDEX "public"."ix_webhook_deliveries_webhook"',
    'DROP INDEX "public"."ix_webhook_deliveries_event"',
    'DROP TABLE "webhook_deliveries"',
    'DROP INDEX "public"."ix_webhooks_match"',
    'DROP TABLE "webhooks"',
    'DROP INDEX "public"."ix_webhook_events_created"',
    'DROP TABLE "webhook_events"',
  ];
}
