import { Injectable, Logger } from '@nestjs/common';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import { normalizeEmail } from '../../base/common/validation/email-rules.js';
import { GuessingDefence } from '../../accounts/lockout/guessing-defence.js';
import type { DirectoryEntity } from '../../base/model/federation.entity.js';
import type { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import type { AuditOrigin } from '../../delivery/audit/audit-origin.js';
import { type EmailRoute, FederatedSignIn } from '../federation/federated-sign-in.service.js';
import { SignInAuthority, SignInRefusal, type TenantAuthenticator } from '../login/sign-in-authority.js';
import { DirectoriesRepository } from './directories.repository.js';
import { DirectoriesService } from './directories.service.js';
import { DirectoryErrors } from './directories.errors.js';
import {
  bindService,
  type DirectoryPerson,
  DirectoryUnavailable,
  findPeople,
  passwordBinds,
  withDirectory,
} from './ldap-directory.js';

/**
 * Sign-in against a domain's company directory (POST auth/ad/login/, docs/federated-login.md): the directory
 * is the one the caller named the domain of, or the one the email's verified domain routes to; the person's
 * entry is searched with the service account, then bound with the person's own DN and password. An unknown
 * person, a wrong password, a disabled Active Directory account and the authority's refusal are one 401. The
 * attempt goes through the guessing defence of the account the email names (shared with the password
 * sign-in), and the domain's second-factor policy applies as to a password.
 */
@Injectable()
export class DirectoryLoginService {
  private readonly logger = new Logger('DirectoryLogin');

  constructor(
    private readonly directories: DirectoriesService,
    private readonly repo: DirectoriesRepository,
    private readonly federated: FederatedSignIn,
    private readonly authority: SignInAuthority,
    private readonly defence: GuessingDefence,
  ) {}

  /**
   * The directory that checks `email`'s password (null: none, the same 401 as a wrong password): the named
   * domain's (the one the email routes to if it is among them, else the oldest enabled), else the one the email
   * routes to, else (`fallbackDomainId`, the consent page's application) that domain's oldest enabled.
   */
  async directoryFor(
    email: string,
    systemDomainId?: string,
    fallbackDomainId?: string,
  ): Promise<DirectoryEntity | null> {
    const route = await this.federated.route(email);
    const routed = route?.kind === 'directory' ? route.id : null;
    if (systemDomainId === undefined && routed) return this.directoryOf(route!);
    const domainId = systemDomainId ?? fallbackDomainId;
    if (domainId === undefined) return null;
    const candidates = await this.repo.enabledOf(domainId);
    return candidates.find((d) => d.id === routed) ?? candidates[0] ?? null;
  }

  /** The directory an email route names (FederatedSignIn.route), or null. */
  directoryOf(route: EmailRoute): Promise<DirectoryEntity | null> {
    return this.repo.inDomain(route.id, route.systemDomainId);
  }

  /** A domain's enabled directories, oldest first (the consent page's "Continue with …"). */
  enabledOf(systemDomainId: string): Promise<DirectoryEntity[]> {
    return this.repo.enabledOf(systemDomainId);
  }

  /** `fallbackDomainId`: see directoryFor (the consent page's application's domain). */
  async login(
    body: { email: string; password: string; system_domain_id?: string },
    origin: AuditOrigin,
    fallbackDomainId?: string,
  ): Promise<LoginTokenDto> {
    const email = normalizeEmail(body.email);
    const directory = await this.directoryFor(email, body.system_domain_id, fallbackDomainId);
    if (!directory?.enabled) throw DirectoryErrors.BAD_CREDENTIALS();
    const by: TenantAuthenticator = {
      kind: 'directory',
      id: directory.id,
      systemDomainId: directory.system_domain_id,
    };
    const person = await this.verify(directory, email, body.password, origin);
    if (!person) throw DirectoryErrors.BAD_CREDENTIALS();
    if (!person.email) {
      await this.federated.refused(by, 'the entry has no email address', origin);
      throw DirectoryErrors.BAD_CREDENTIALS();
    }
    let userId: string;
    try {
      userId = await this.federated.admit(
        by,
        {
          email: person.email,
          firstName: person.firstName,
          lastName: person.lastName,
          groups: person.groups,
        },
        this.directories.settingsOf(directory).jit_provisioning,
        origin,
      );
    } catch (e) {
      // a refusal (on record already), or two first sign-ins of one new person at once (the loser retries)
      if (e instanceof SignInRefusal || isUniqueViolation(e)) throw DirectoryErrors.BAD_CREDENTIALS();
      throw e;
    }
    return this.authority.tenantSession(by, userId, false, DirectoryErrors.BAD_CREDENTIALS, origin, {
      secondFactor: true,
    });
  }

  /**
   * The person's entry when the directory accepts the password, else null. With a local account for the email,
   * the attempt is reserved first (GuessingDefence: a locked account is refused without asking the directory,
   * and at most the threshold's guesses reach it); a directory that does not answer is a 503, and counts as
   * an attempt (the defence cannot tell it from a guess). An email without a local account (a first sign-in)
   * is limited by the per-address rate limits and the directory's own lockout.
   */
  private async verify(
    directory: DirectoryEntity,
    email: string,
    password: string,
    origin: AuditOrigin,
  ): Promise<DirectoryPerson | null> {
    const out: { found: DirectoryPerson | string } = { found: 'not asked' };
    const check = async () => {
      out.found = await this.bindAs(directory, email, password);
      return typeof out.found !== 'string';
    };
    const person = () => (typeof out.found === 'string' ? null : out.found);
    try {
      const attempt = await this.defence.attemptAccount(email, 'password', check, origin);
      if (attempt !== null) return attempt.outcome === 'ok' ? person() : null;
      // no local account: the defence wrote nothing, so the refusal goes on record here, with its reason
      if (await check()) return person();
      const by = { kind: 'directory' as const, id: directory.id, systemDomainId: directory.system_domain_id };
      await this.federated.refused(by, `${String(out.found)} (no local account)`, origin);
      return null;
    } catch (e) {
      if (!(e instanceof DirectoryUnavailable)) throw e;
      this.logger.warn({ directory: directory.id, reason: e.message }, 'directory unavailable');
      throw DirectoryErrors.UNAVAILABLE();
    }
  }

  /**
   * Search with the service account, then bind as the one entry found (disabled AD accounts never bind): the
   * person, or why not.
   */
  private async bindAs(
    directory: DirectoryEntity,
    email: string,
    password: string,
  ): Promise<DirectoryPerson | string> {
    const connection = this.directories.connectionOf(directory);
    return withDirectory(connection, async (client) => {
      await bindService(client, connection);
      const found = await findPeople(client, connection.settings, email);
      if (found === 'ambiguous') return 'the user filter finds more than one entry';
      if (found.length !== 1) return 'the user filter finds no entry';
      const [person] = found;
      if (person.disabled) return 'the account is disabled in the directory';
      return (await passwordBinds(client, person.dn, password))
        ? person
        : 'the directory refused the password';
    });
  }
}
