import { randomInt } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { passwordReset } from '../../delivery/audit/audit-entries.js';
import { OUTSIDE_REQUEST, type AuditOrigin } from '../../delivery/audit/audit-origin.js';
import type { AuditService } from '../../delivery/audit/audit.service.js';
import { hashPassword } from '../../base/common/crypto/passwords.js';
import { emailProblem, normalizeEmail } from '../../base/common/validation/email-rules.js';
import type { TokensService } from '../../credentials/tokens/tokens.service.js';
import type { PasswordPolicyService } from './password-policy.service.js';
import { PasswordsRepository } from './passwords.repository.js';

export interface AdminResetDeps {
  ds: DataSource;
  tokens: TokensService;
  policy: PasswordPolicyService;
  audit: AuditService;
}

/** Refused: unknown account, or a password the account's domains do not accept. Nothing was changed. */
export class AdminResetError extends Error {}

/** The operator's command stands in for a request: no address, the OS user as the operator. */
export const ADMIN_CLI: AuditOrigin = { ...OUTSIDE_REQUEST, actorKind: 'admin_cli' };

/**
 * `npm run admin -- reset-password <email>`: an operator with database access sets a new password (given, or
 * generated and shown once), through the password policy of every domain of the account; every token of the
 * account is revoked (as a mailed reset does), the password's lock lifted, and the change is one audit record
 * (`password.reset`, actor `admin_cli`) in the same transaction. Returns the password when it was generated.
 */
export async function adminResetPassword(
  deps: AdminResetDeps,
  email: string,
  given: string | null,
  operator: string | null = null,
): Promise<{ userId: string; generated: string | null; revoked: number }> {
  const normalized = normalizeEmail(email);
  // refused before any query: control characters (a NUL would not even reach PostgreSQL) and non-addresses
  if (!/^[^@\s]+@[^@\s]+$/.test(normalized) || /\p{Cc}/u.test(normalized) || emailProblem(normalized)) {
    throw new AdminResetError('not an email address');
  }
  if (given !== null && (/\p{Cc}/u.test(given) || given.length > 1024)) {
    throw new AdminResetError('the password has control characters or is over 1024 characters');
  }
  const repo = new PasswordsRepository(deps.ds);
  const user = await repo.accountByEmail(normalized);
  if (!user) throw new AdminResetError('no account with this email');
  const password = given ?? generatePassword();
  const failed = await deps.policy.judge(await deps.policy.checksForUser(user.id), password, [
    user.email,
    user.first_name,
    user.last_name,
  ]);
  if (failed.length > 0) throw new AdminResetError(`password refused: ${failed.join('; ')}`);
  const hash = await hashPassword(password);
  const revoked = await repo.transaction(async (em) => {
    await repo.setPasswordHash(em, user.id, hash);
    const n = await deps.tokens.revokeWhere({ user_id: user.id }, { em, requestId: null, origin: ADMIN_CLI });
    await repo.revokeRefreshTokens(em, user.id);
    await repo.clearPasswordAttempts(em, user.id);
    const entry = await passwordReset(em, user.id);
    await deps.audit.record(em, ADMIN_CLI, { ...entry, details: { operator, revoked_credentials: n } });
    return n;
  });
  return { userId: user.id, generated: given === null ? password : null, revoked };
}

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIAL = '!#%+-=?@_';

/** 20 characters, every class present (domains may ask for each), from the CSPRNG. */
function generatePassword(): string {
  const all = LOWER + UPPER + DIGITS + SPECIAL;
  const pick = (s: string) => s[randomInt(s.length)];
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SPECIAL)];
  while (chars.length < 20) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}
