import { Injectable } from '@nestjs/common';
import { dummyPasswordHash, verifyPassword } from '../../base/common/crypto/passwords.js';
import { normalizeEmail } from '../../base/common/validation/email-rules.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { GuessingDefence } from '../../accounts/lockout/guessing-defence.js';
import { OUTSIDE_REQUEST, type AuditOrigin } from '../../delivery/audit/audit-origin.js';
import { AuditService, type AuditEntry } from '../../delivery/audit/audit.service.js';

const UNKNOWN_ACCOUNT: AuditEntry = {
  systemDomainId: null,
  action: 'signin.failure',
  targetType: null,
  targetId: null,
  outcome: 'failure',
  details: { factor: 'password', reason: 'unknown_account' },
};

/**
 * Email + password → the active user, or null. Every password check of the service comes through here
 * (simple login, the consent page's sign-in, invitation completion for an existing account), so every one is
 * counted by the guessing defence. An unknown email, a wrong password, an inactive user and a locked account
 * all cost one argon2 verification (a dummy hash when the real one is not to be checked), so neither the
 * answer nor its timing tells them apart. Call it outside a transaction (GuessingDefence).
 */
@Injectable()
export class CredentialsService {
  constructor(
    private readonly defence: GuessingDefence,
    private readonly audit: AuditService,
  ) {}

  /**
   * `includeInactive`: also an inactive account whose password is right (the caller answers its status).
   * `origin`: the request, for the audit records of refusals (GuessingDefence writes them).
   */
  async verify(
    email: string,
    password: string,
    {
      includeInactive = false,
      origin = OUTSIDE_REQUEST,
    }: { includeInactive?: boolean; origin?: AuditOrigin } = {},
  ): Promise<UserEntity | null> {
    // the account and the guessing defence's reservation in one statement (GuessingDefence.attemptAccount)
    const attempt = await this.defence.attemptAccount(
      normalizeEmail(email),
      'password',
      (account) => {
        const hash = account.password_hash;
        return hash ? verifyPassword(hash, password) : this.dummy(password).then(() => false);
      },
      origin,
    );
    // unknown email: no row is created for it (nothing to protect, and no growth an attacker controls)
    if (!attempt) {
      // no account to name: the record says only that a password sign-in was refused, and from where
      await this.audit.recordAlone(origin, UNKNOWN_ACCOUNT);
      return this.dummy(password);
    }
    const { user, outcome } = attempt;
    if (outcome === 'locked') return this.dummy(password);
    if (outcome !== 'ok') return null;
    if (user.status !== 'ACTIVE' && !includeInactive) {
      // the right password for an account that may not sign in: refused, and on record like any refusal
      await this.audit.recordAlone(origin, {
        systemDomainId: user.system_domain_id,
        action: 'signin.failure',
        targetType: 'user',
        targetId: user.id,
        outcome: 'failure',
        details: { factor: 'password', reason: 'inactive' },
      });
      return null;
    }
    delete (user as Partial<UserEntity>).password_hash;
    return user;
  }

  private async dummy(password: string): Promise<null> {
    await verifyPassword(await dummyPasswordHash(), password);
    return null;
  }
}
