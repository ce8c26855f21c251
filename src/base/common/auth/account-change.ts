import { AuthErrors } from './auth.errors.js';
import type { AuthContext } from './auth-context.js';

/**
 * Whether `auth` may change its person's account factors (email, password, second factors, recovery
 * codes, an SSO identity of their own): only the person's own sign-in token (LOGIN, no ceiling: never a PAT,
 * an OAuth or an app token acting as them), from a sign-in that passed the service's second factor or a
 * sign-in within the last `windowSeconds`. A session a tenant's authenticator vouched for (a domain's SAML
 * IdP, SignInAuthority) is never second-factor authenticated, and changes the account only while that tenant
 * owns it (`tenantOwnsAccount`, read at this request): the account of a super administrator or of a person
 * who also belongs to another domain changes only from the service's own sign-in. Throws the 403 that says
 * which.
 */
export function requireAccountChange(auth: AuthContext, now: Date, windowSeconds: number): void {
  const minutes = Math.round(windowSeconds / 60);
  if (auth.record.vouched_by_tenant && !auth.tenantOwnsAccount)
    throw AuthErrors.ACCOUNT_CHANGE_SERVICE_SIGN_IN(minutes);
  if (auth.kind !== 'LOGIN' || auth.rightsCap) throw AuthErrors.ACCOUNT_CHANGE_OWN_SIGN_IN();
  if (auth.record.is_mfa_authenticated && !auth.record.vouched_by_tenant) return;
  const at = auth.record.auth_time;
  if (!at || now.getTime() - at.getTime() > windowSeconds * 1000) {
    throw AuthErrors.ACCOUNT_CHANGE_RECENT_SIGN_IN(minutes);
  }
}
