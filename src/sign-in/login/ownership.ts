/**
 * The sign-in authority's rule of ownership (docs/security.md, "The sign-in authority"): a tenant owns an
 * account when the account's only membership is that tenant's domain and it is no super administrator. A
 * tenant's authenticator vouches on its own word only for what the tenant owns (SignInAuthority.judge), and a
 * tenant's provisioning client (SCIM, sign-in/scim/) sees and changes only such accounts.
 */
export function ownsAccount(facts: {
  user: { is_super_admin: boolean };
  member: boolean;
  otherDomains: number;
}): boolean {
  return facts.member && facts.otherDomains === 0 && !facts.user.is_super_admin;
}

/**
 * The same rule as SQL over a user row aliased `u`, for a domain id in the parameter `domainParam` ("$1"):
 * the condition of the accounts the domain owns, for the queries that list them.
 */
export function ownedAccountSql(u: string, domainParam: string): string {
  return `(NOT ${u}.is_super_admin
    AND EXISTS (SELECT 1 FROM user_system_domains om WHERE om.user_id = ${u}.id AND om.system_domain_id = ${domainParam})
    AND NOT EXISTS (SELECT 1 FROM user_system_domains oo WHERE oo.user_id = ${u}.id AND oo.system_domain_id <> ${domainParam}))`;
}
