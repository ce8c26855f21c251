import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Users' photos, one per user and domain (users/{id}/photo/, users/current/photo/). */
export class UserPhotos1795700210000 implements MigrationInterface {
  name = 'UserPhotos1795700210000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "user_photos" ("user_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "content_type" text NOT NULL, "bytes" bytea NOT NULL, "sha256" text NOT NULL, "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_d01182fa72f181a8b8457598b2e" PRIMARY KEY ("user_id", "system_domain_id"))',
    );
    await queryRunner.query(
      'ALTER TABLE "user_photos" ADD CONSTRAINT "FK_user_photos_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "user_photos" ADD CONSTRAINT "FK_user_photos_domain" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "user_photos" DROP CONSTRAINT "FK_user_photos_domain"');
    await queryRunner.query('ALTER TABLE "user_photos" DROP CONSTRAINT "FK_user_photos_user"');
    await queryRunner.query('DROP TABLE "user_photos"');
  }
}
