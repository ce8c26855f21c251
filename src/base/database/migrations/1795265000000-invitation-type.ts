import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An invitation names the new account's type: a pending invitation holds a seat of the domain's BillingLimits. */
export class InvitationType1795265000000 implements MigrationInterface {
  name = 'InvitationType1795265000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invitations" ADD "type" text NOT NULL DEFAULT 'STANDARD'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "invitations" DROP COLUMN "type"');
  }
}
