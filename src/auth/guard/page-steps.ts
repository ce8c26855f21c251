import type { Request, Response } from 'express';
import { ApiError } from '../../base/common/errors/api-error.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AuthenticatedOptions } from '../../base/common/auth/authenticated.decorator.js';
import { CredentialKindStep } from './credential-kind.step.js';
import type { GuardStep } from './guard-step.js';
import { TenantStatusStep } from './tenant-status.step.js';

/**
 * The guard's steps for a browser page's cookie credential (the consent pages), the same classes the guard
 * runs on the header path: the credential kind the page's step declares, then the tenant status. No rate
 * limit (the pages are `@Public` routes, charged to the address), no account change, roles or ACL (the
 * consent page checks the approver itself, AuthorizationRequestService.requireApprover).
 */
const PAGE_STEPS: readonly GuardStep[] = [new CredentialKindStep(), new TenantStatusStep()];

/**
 * The page's caller if the steps pass `policy`; null where the API would answer 401 (a kind the step does not
 * accept, a deactivated domain): "not signed in" on a page. Any other refusal (a frozen domain's write, 403)
 * is thrown on, for the page's error filter.
 */
export async function admitToPage(
  req: Request,
  policy: AuthenticatedOptions,
  auth: AuthContext | null,
): Promise<AuthContext | null> {
  if (!auth) return null;
  try {
    for (const step of PAGE_STEPS) await step.run({ req, res: req.res as Response, policy, auth });
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
  return auth;
}
