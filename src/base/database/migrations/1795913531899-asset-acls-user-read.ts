import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AssetAclsUserRead1795913531899 implements MigrationInterface {
  name = 'AssetAclsUserRead1795913531899';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE INDEX \"ix_asset_acls_user_read\" ON \"asset_acls\"  (\"user_id\", \"asset_id\") WHERE \"user_id\" IS NOT NULL AND 'read' = ANY(\"permissions\")");
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DROP INDEX \"public\".\"ix_asset_acls_user_read\"");
  }
}
