import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ScimProfiles1795901644869 implements MigrationInterface {
  name = 'ScimProfiles1795901644869';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"scim_profiles\" (\"user_id\" uuid NOT NULL, \"system_domain_id\" uuid NOT NULL, \"external_id\" text, \"display_name\" text, \"enterprise\" jsonb NOT NULL DEFAULT '{}', \"date_modified\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"PK_scim_profiles\" PRIMARY KEY (\"user_id\"))");
    await queryRunner.query("CREATE INDEX \"ix_scim_profiles_domain_external\" ON \"scim_profiles\"  (\"system_domain_id\", \"external_id\") ");
    await queryRunner.query("ALTER TABLE \"scim_profiles\" ADD CONSTRAINT \"FK_scim_profiles_user\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"scim_profiles\" ADD CONSTRAINT \"FK_scim_profiles_domain\" FOREIGN KEY (\"system_domain_id\") REFERENCES \"system_domains\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"scim_profiles\" DROP CONSTRAINT \"FK_scim_profiles_domain\"");
    await queryRunner.query("ALTER TABLE \"scim_profiles\" DROP CONSTRAINT \"FK_scim_profiles_user\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_scim_profiles_domain_external\"");
    await queryRunner.query("DROP TABLE \"scim_profiles\"");
  }
}
