import { SqlMigration } from '../sql-migration.js';

/**
 * Partner domain access (users/partner_domain_access/): the grant, and the memberships it made (a partner
 * domain's administrators in the customer domain), marked so revoking removes exactly those.
 */
export class PartnerDomainAccess1795700620000 extends SqlMigration {
  name = 'PartnerDomainAccess1795700620000';

  protected readonly upStatements = [
    'CREATE TABLE "partner_domain_access" ("customer_domain_id" uuid NOT NULL, "partner_domain_id" uuid NOT NULL, "granted_by_user_id" uuid, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_partner_domain_access" PRIMARY KEY ("customer_domain_id", "partner_domain_id"))',
    'ALTER TABLE "partner_domain_access" ADD CONSTRAINT "FK_partner_domain_access_customer" FOREIGN KEY ("customer_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "partner_domain_access" ADD CONSTRAINT "FK_partner_domain_access_partner" FOREIGN KEY ("partner_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "partner_domain_access" ADD CONSTRAINT "FK_partner_domain_access_granted_by" FOREIGN KEY ("granted_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    'ALTER TABLE "user_system_domains" ADD "via_partner_domain_id" uuid',
    'ALTER TABLE "user_system_domains" ADD CONSTRAINT "FK_user_system_domains_via_partner" FOREIGN KEY ("via_partner_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "user_system_domains" DROP CONSTRAINT "FK_user_system_domains_via_partner"',
    'ALTER TABLE "user_system_domains" DROP COLUMN "via_partner_domain_id"',
    'DROP TABLE "partner_domain_access"',
  ];
}
