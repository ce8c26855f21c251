import type { ConfigOf } from '../../base/config/namespace.js';
import { REGISTRATION_CONFIG } from './registration-config.js';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../base/common/clock.js';
import { ApiError } from '../../base/common/errors/api-error.js';
import { hashPassword } from '../../base/common/crypto/passwords.js';
import { generateSecret, sha256Hex } from '../../base/common/crypto/secrets.js';
import { type ListEnvelope, pageOfAll } from '../../base/common/http/list-envelope.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import { SignInAuthority } from '../login/sign-in-authority.js';
import { linkMail } from '../../delivery/mail/mail-templates.js';
import { MailService } from '../../delivery/mail/mail.service.js';
import { MarketplaceService } from '../marketplace/marketplace.service.js';
import { PasswordPolicyService } from '../../accounts/passwords/password-policy.service.js';
import { COUNTRIES, type Country } from './countries.js';
import type { VerificationResponseDto } from './dto/domain-from-template.dto.js';
import type { CountriesQueryDto, RegistrationBodyDto, RegistrationDto } from './dto/registration.dto.js';
import { NewDomainService } from './new-domain.service.js';
import { OnboardingErrors } from './onboarding.errors.js';
import { OnboardingRepository } from './onboarding.repository.js';
import { ReferralCodesService } from './referral-codes.service.js';

/** What a link's secret looks like (generateSecret: 32 bytes, base64url): anything else is not looked up. */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** Ended registrations of an email are kept this long (a late click gets 419, not 404), then deleted. */
const KEEP_ENDED_MS = 7 * 24 * 3600 * 1000;

/**
 * Self-service registration: a pending registration and a mailed link; the link creates the account and
 * its domain (from the template) and signs the person in. The answer to POST never tells whether the email
 * has an account: the same 201 either way, and the account's owner is mailed a different text.
 */
@Injectable()
export class RegistrationsService {
  private readonly logger = new Logger('Registrations');

  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    @Inject(REGISTRATION_CONFIG.token)
    private readonly registrationConfig: ConfigOf<typeof REGISTRATION_CONFIG>,
    private readonly clock: Clock,
    private readonly mail: MailService,
    private readonly passwords: PasswordPolicyService,
    private readonly codes: ReferralCodesService,
    private readonly newDomains: NewDomainService,
    private readonly signIns: SignInAuthority,
    private readonly marketplace: MarketplaceService,
    private readonly repo: OnboardingRepository,
  ) {}

  async register(body: RegistrationBodyDto): Promise<RegistrationDto> {
    this.assertEnabled();
    const referral = body.referral_code || null;
    if (referral !== null) {
      // unknown and expired codes answer alike: guessing learns nothing about which codes once existed
      const code = await this.codes.find(this.repo.manager, referral);
      if (!code || !this.codes.isValid(code)) {
        throw OnboardingErrors.INVALID({
          referral_code: 'is not a valid referral code (unknown or expired)',
        });
      }
    }
    const nonce = body.marketplace_signup_nonce || null;
    if (nonce !== null) await this.marketplace.assertUsable(nonce);
    await this.passwords.assert(await this.newDomains.passwordDomains(this.repo.manager), body.password, {
      personal: [body.email, body.first_name, body.last_name, body.company_name],
    });
    // hashed whether or not the email has an account: the answer takes as long either way
    const passwordHash = await hashPassword(body.password);
    const secret = generateSecret();
    const now = this.clock.now();
    const expires = new Date(now.getTime() + this.registrationConfig.ttlSeconds * 1000);
    const id = await this.repo.transaction(async (em) => {
      if ((await this.repo.lockAccountId(em, body.email)) !== undefined) {
        await this.mailExisting(em, body.email);
        return randomUUID();
      }
      await this.repo.retirePending(em, body.email, now, new Date(now.getTime() - KEEP_ENDED_MS));
      const fields = {
        email: body.email,
        first_name: body.first_name,
        last_name: body.last_name,
        company_name: body.company_name ?? null,
        country: body.country,
        email_marketing_consent: body.email_marketing_consent ?? null,
        referral_code: referral,
        billing_customer_id: body.billing_customer_id ?? null,
        billing_subscription_id: body.billing_subscription_id ?? null,
        payments_id: body.payments_id ?? null,
        marketplace_nonce_sha256: nonce === null ? null : sha256Hex(nonce),
        password_hash: passwordHash,
        secret_sha256: sha256Hex(secret),
        expires,
        verified_at: null,
        superseded_at: null,
        user_id: null,
        system_domain_id: null,
      };
      const row = await this.repo.insertRegistration(em, fields).catch((e: unknown) => {
        throw isUniqueViolation(e) ? OnboardingErrors.REGISTERED_CONCURRENTLY() : e;
      });
      await this.mail.queue(em, {
        kind: 'registration',
        to: body.email,
        subject: 'Verify your email address',
        ...linkMail({
          intro: [
            `Welcome, ${body.first_name}. Verify your email address to create your account and domain.`,
          ],
          action: 'Verify my email address',
          link: `${this.config.http.publicBaseUrl}/registrations/verify/${secret}`,
          outro: [
            `The link works once and expires on ${expires.toISOString()}.`,
            'If you did not sign up, ignore this mail: nothing is created without the link.',
          ],
        }),
      });
      return row.id;
    });
    return {
      id,
      base_url: this.config.http.publicBaseUrl,
      date_created: wireDate(now),
      country: body.country,
      email: body.email,
      first_name: body.first_name,
      last_name: body.last_name,
      company_name: body.company_name ?? null,
      email_marketing_consent: body.email_marketing_consent ?? null,
      referral_code: referral,
      password: null,
      billing_customer_id: body.billing_customer_id ?? null,
      billing_subscription_id: body.billing_subscription_id ?? null,
      payments_id: body.payments_id ?? null,
      marketplace_signup_nonce: nonce,
    };
  }

  /**
   * Claims the registration behind a link (row lock: of two requests with the same link one creates, the
   * other finds it used) and creates the account and its domain; signs the person in unless a second factor
   * is owed (the new domain's template may require one).
   */
  async verify(secret: string, requestId: string | null): Promise<VerificationResponseDto> {
    this.assertEnabled();
    if (!SECRET_SHAPE.test(secret)) throw OnboardingErrors.LINK_NOT_FOUND();
    return this.repo.transaction(async (em) => {
      const reg = await this.repo.lockRegistration(em, sha256Hex(secret));
      if (!reg) throw OnboardingErrors.LINK_NOT_FOUND();
      const now = this.clock.now();
      if (reg.verified_at || reg.superseded_at || new Date(reg.expires).getTime() <= now.getTime()) {
        throw OnboardingErrors.LINK_EXPIRED();
      }
      // the code was checked when it was used, at registration; it still applies if it exists
      const code = reg.referral_code ? await this.codes.find(em, reg.referral_code, true) : null;
      const { domain, user, view } = await this.newDomains.create(
        em,
        {
          name: reg.company_name || `${reg.first_name}'s domain`,
          country: reg.country,
          code,
          billing: {
            billing_customer_id: reg.billing_customer_id,
            billing_subscription_id: reg.billing_subscription_id,
            payments_id: reg.payments_id,
          },
        },
        {
          email: reg.email,
          first_name: reg.first_name,
          last_name: reg.last_name,
          password_hash: reg.password_hash,
        },
        requestId,
      );
      await this.repo.markRegistrationVerified(em, reg.id, {
        verified_at: now,
        user_id: user.id,
        system_domain_id: domain.id,
      });
      // the link came by mail to this address: its holder receives mail there (OpenID Connect email_verified)
      await this.repo.markEmailVerified(em, user.id, reg.email);
      if (reg.marketplace_nonce_sha256)
        await this.linkMarketplace(em, reg.marketplace_nonce_sha256, domain.id, requestId);
      if (await this.signIns.factorOwed(em, domain, user.id)) {
        return { auto_login: false, domain_data: view, login_data: null };
      }
      const login = await this.signIns.serviceSession(
        em,
        { userId: user.id, domainId: domain.id },
        { method: 'registration' },
      );
      return { auto_login: true, domain_data: view, login_data: { app_id: login.appId, token: login.token } };
    });
  }

  /**
   * The marketplace nonce given at registration: consumed now, for the new domain. A nonce that can no longer
   * be claimed (it expired while the mail waited, or was used elsewhere) does not block the account: the
   * domain is created unlinked, and an administrator can link it later (POST /v1/marketplace/link/).
   */
  private async linkMarketplace(
    em: EntityManager,
    nonceSha256: string,
    domainId: string,
    requestId: string | null,
  ): Promise<void> {
    try {
      await this.marketplace.consumeHashed(em, nonceSha256, domainId, { requestId });
    } catch (e) {
      if (e instanceof ApiError && e.code === 'marketplace.NONCE_INVALID') {
        this.logger.warn(
          `system domain ${domainId}: the registration's marketplace nonce could not be claimed`,
        );
        return;
      }
      throw e;
    }
  }

  countries(q: CountriesQueryDto, path: string): ListEnvelope<Country> {
    const term = q.query?.trim().toLowerCase();
    // an exact code (alpha-2, alpha-3, numeric) first, then names containing the term, by name
    const isCode = (c: Country) => [c.alpha2, c.alpha3, c.numeric].some((v) => v.toLowerCase() === term);
    const matching = term
      ? [
          ...COUNTRIES.filter(isCode),
          ...COUNTRIES.filter(
            (c) =>
              !isCode(c) &&
              (c.name.toLowerCase().includes(term) || c.apolitical_name.toLowerCase().includes(term)),
          ),
        ]
      : COUNTRIES;
    return pageOfAll(matching, q, path, {
      page: q.page,
      per_page: q.per_page,
      ...(q.query !== undefined ? { query: q.query } : {}),
    });
  }

  private assertEnabled(): void {
    if (!this.registrationConfig.enabled) throw OnboardingErrors.REGISTRATION_DISABLED();
  }

  private async mailExisting(em: EntityManager, email: string): Promise<void> {
    await this.mail.queue(em, {
      kind: 'registration (existing account)',
      to: email,
      subject: 'You already have an account',
      ...linkMail({
        intro: [
          `Someone (perhaps you) tried to sign up with ${email}, which already has an account. No new account was created.`,
        ],
        action: 'Sign in',
        link: `${this.config.http.publicBaseUrl}/login`,
        outro: [
          'Forgot your password? Choose "Forgot password" on the sign-in page to get a reset link.',
          'If you did not try to sign up, ignore this mail.',
        ],
      }),
    });
  }
}
