import { Injectable } from '@nestjs/common';
import { dummyPasswordHash, verifyPassword } from '../../base/common/crypto/passwords.js';
import { normalizeEmail } from '../../base/common/validation/email-rules.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { GuessingDefence, type AttemptOutcome } from '../../accounts/lockout/guessing-defence.js';
import { LoginRepository, type LiveMembership } from './login.repository.js';
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
    private readonly accounts: LoginRepository,
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
      (account) => this.check(account, password),
      origin,
    );
    return this.settled(attempt, password, includeInactive, origin);
  }

  /** The answer to an attempt: the user, or null after the same work whatever the reason (see the class). */
  private async settled(
    attempt: { user: UserEntity; outcome: AttemptOutcome } | null,
    password: string,
    includeInactive: boolean,
    origin: AuditOrigin,
  ): Promise<UserEntity | null> {
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

  /**
   * `verify` for a password sign-in (LoginService.simpleLogin): the account is read with the reservation and
   * its live memberships in one statement (LoginRepository.signInAccount), and a success's clear of the count
   * is left to the sign-in's token statement (`clearFactor` → SignInService). The caller must `forget` the
   * count itself when it will not write that statement (a refusal after the password), or the success stays
   * counted as a failure. Everything else is `verify`'s: the same answers after the same work.
   */
  async verifyForSignIn(
    email: string,
    password: string,
    origin: AuditOrigin = OUTSIDE_REQUEST,
  ): Promise<{ user: UserEntity; memberships: LiveMembership[] } | null> {
    const attempt = await this.defence.attemptAccount(
      normalizeEmail(email),
      'password',
      (account) => this.check(account, password),
      origin,
      { read: (e, f, l) => this.accounts.signInAccount(e, f, l), deferClear: true },
    );
    const user = await this.settled(attempt, password, false, origin);
    // the right password, but no sign-in follows (an inactive account): the success is forgotten now
    if (!user && attempt?.outcome === 'ok') await this.defence.forget(attempt.user.id, 'password');
    return user && attempt ? { user, memberships: attempt.memberships } : null;
  }

  /** The password of an account (a dummy hash's work when it has none: the same time as a wrong one). */
  private check(account: UserEntity, password: string): Promise<boolean> {
    const hash = account.password_hash;
    return hash ? verifyPassword(hash, password) : this.dummy(password).then(() => false);
  }

  private async dummy(password: string): Promise<null> {
    await verifyPassword(await dummyPasswordHash(), password);
    return null;
  }
}
