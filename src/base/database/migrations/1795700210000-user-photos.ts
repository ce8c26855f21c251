import { SqlMigration } from '../sql-migration.js';

/** Users' photos, one per user and domain (users/{id}/photo/, users/current/photo/). */
export class UserPhotos1795700210000 extends SqlMigration {
  name = 'UserPhotos1795700210000';

  protected readonly upStatements = [
    'CREATE TABLE "user_photos" ("user_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "content_type" text NOT NULL, "bytes" bytea NOT NULL, "sha256" text NOT NULL, "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_d01182fa72f181a8b8457598b2e" PRIMARY KEY ("user_id", "system_domain_id"))',
    'ALTER TABLE "user_photos" ADD CONSTRAINT "FK_user_photos_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "user_photos" ADD CONSTRAINT "FK_user_photos_domain" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "user_photos" DROP CONSTRAINT "FK_user_photos_domain"',
    'ALTER TABLE "user_photos" DROP CONSTRAINT "FK_user_photos_user"',
    'DROP TABLE "user_photos"',
  ];
}
