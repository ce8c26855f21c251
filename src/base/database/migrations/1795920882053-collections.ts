import { SqlMigration } from '../sql-migration.js';

/**
 * Collections (issue 38): the collections of a domain, nested under at most one parent, their contents
 * (assets and collections), their ACLs, and the GIN index over each collection's search document.
 */
export class Collections1795920882053 extends SqlMigration {
  name = 'Collections1795920882053';

  protected readonly upStatements = [
    'CREATE TABLE "collections" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "title" text NOT NULL, "status" text NOT NULL DEFAULT \'ACTIVE\', "category" text, "external_id" text, "custom_order_status" text NOT NULL DEFAULT \'DISABLED\', "parent_id" uuid, "created_by_user" uuid, "deleted_by_user" uuid, "date_deleted" TIMESTAMP WITH TIME ZONE, "search_vector" tsvector, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_21c00b1ebbd41ba1354242c5c4e" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_collections_search" ON "collections" USING gin ("search_vector")',
    'CREATE INDEX "ix_collections_parent" ON "collections"  ("parent_id") ',
    'CREATE INDEX "ix_collections_domain_created" ON "collections"  ("system_domain_id", "date_created") ',
    'CREATE TABLE "collection_contents" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "collection_id" uuid NOT NULL, "object_type" text NOT NULL, "object_id" uuid NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c0e2dd3f2238a5a25dfe7ac37e6" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_collection_contents_object" ON "collection_contents"  ("object_type", "object_id") ',
    'CREATE UNIQUE INDEX "uq_collection_contents" ON "collection_contents"  ("collection_id", "object_type", "object_id") ',
    'CREATE TABLE "collection_acls" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "collection_id" uuid NOT NULL, "user_id" uuid, "group_id" uuid, "permissions" text array NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1c26b3c57358c9d14b9e5743b36" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_collection_acls_group" ON "collection_acls"  ("group_id") ',
    'CREATE INDEX "ix_collection_acls_user" ON "collection_acls"  ("user_id") ',
    'CREATE INDEX "ix_collection_acls_collection" ON "collection_acls"  ("collection_id") ',
    'CREATE UNIQUE INDEX "uq_collection_acls_group" ON "collection_acls"  ("collection_id", "group_id") WHERE "group_id" IS NOT NULL',
    'CREATE UNIQUE INDEX "uq_collection_acls_user" ON "collection_acls"  ("collection_id", "user_id") WHERE "user_id" IS NOT NULL',
    'ALTER TABLE "collections" ADD CONSTRAINT "FK_8a372af4717c6042c3240f2a333" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "collections" ADD CONSTRAINT "FK_0f812cc4eb3b50276468bb4a1a7" FOREIGN KEY ("parent_id") REFERENCES "collections"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    'ALTER TABLE "collection_contents" ADD CONSTRAINT "FK_122b2a78c158482704479e8a9f9" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "collection_acls" ADD CONSTRAINT "FK_eebd66a58bc8ccd38e982bdd9e7" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "collection_acls" ADD CONSTRAINT "FK_3744f93781d6cbfd566459860e6" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "collection_acls" ADD CONSTRAINT "FK_055969990546bb1b3929e74d5b2" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "collection_acls" DROP CONSTRAINT "FK_055969990546bb1b3929e74d5b2"',
    'ALTER TABLE "collection_acls" DROP CONSTRAINT "FK_3744f93781d6cbfd566459860e6"',
    'ALTER TABLE "collection_acls" DROP CONSTRAINT "FK_eebd66a58bc8ccd38e982bdd9e7"',
    'ALTER TABLE "collection_contents" DROP CONSTRAINT "FK_122b2a78c158482704479e8a9f9"',
    'ALTER TABLE "collections" DROP CONSTRAINT "FK_0f812cc4eb3b50276468bb4a1a7"',
    'ALTER TABLE "collections" DROP CONSTRAINT "FK_8a372af4717c6042c3240f2a333"',
    'DROP INDEX "public"."uq_collection_acls_user"',
    'DROP INDEX "public"."uq_collection_acls_group"',
    'DROP INDEX "public"."ix_collection_acls_collection"',
    'DROP INDEX "public"."ix_collection_acls_user"',
    'DROP INDEX "public"."ix_collection_acls_group"',
    'DROP TABLE "collection_acls"',
    'DROP INDEX "public"."uq_collection_contents"',
    'DROP INDEX "public"."ix_collection_contents_object"',
    'DROP TABLE "collection_contents"',
    'DROP INDEX "public"."ix_collections_domain_created"',
    'DROP INDEX "public"."ix_collections_parent"',
    'DROP INDEX "public"."ix_collections_search"',
    'DROP TABLE "collections"',
  ];
}
