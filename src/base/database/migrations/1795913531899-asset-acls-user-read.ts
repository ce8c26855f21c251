import { SqlMigration } from '../sql-migration.js';

export class AssetAclsUserRead1795913531899 extends SqlMigration {
  name = 'AssetAclsUserRead1795913531899';

  protected readonly upStatements = [
    'CREATE INDEX "ix_asset_acls_user_read" ON "asset_acls"  ("user_id", "asset_id") WHERE "user_id" IS NOT NULL AND \'read\' = ANY("permissions")',
  ];

  protected readonly downStatements = ['DROP INDEX "public"."ix_asset_acls_user_read"'];
}
