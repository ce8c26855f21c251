import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import { hashPassword } from '../../base/common/crypto/passwords.js';
import { pageList, type PageList } from '../../base/common/http/page-list.js';
import type { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { wireDate, wireDateOrNull } from '../../base/common/http/wire-date.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import { PasswordPolicyService } from '../../accounts/passwords/password-policy.service.js';
import type { FromReferralCodeDto, SystemDomainFromTemplateDto } from './dto/domain-from-template.dto.js';
import { CODE_SHAPE } from './dto/fields.js';
import type { CreateReferralCodeDto, ReferralCodeDto } from './dto/referral-code.dto.js';
import { NewDomainService } from './new-domain.service.js';
import { OnboardingErrors } from './onboarding.errors.js';
import type { ReferralCodeEntity } from '../../base/model/referral-code.entity.js';
import { OnboardingRepository } from './onboarding.repository.js';

/** Referral codes (super administrators), and creating a domain with one (super administrators, partners). */
@Injectable()
export class ReferralCodesService {
  constructor(
    private readonly repo: OnboardingRepository,
    private readonly clock: Clock,
    private readonly newDomains: NewDomainService,
    private readonly passwords: PasswordPolicyService,
  ) {}

  list(q: PageQueryDto, path: string): Promise<PageList<ReferralCodeDto>> {
    return pageList({
      qb: this.repo.referralCodesQuery(),
      alias: 'c',
      q,
      sortable: ['code_key', 'valid_to', 'value', 'date_created'],
      defaultSort: [{ field: 'date_created', order: 'DESC' }],
      path,
      view: (rows) => rows.map(referralCodeView),
    });
  }

  async create(body: CreateReferralCodeDto): Promise<ReferralCodeDto> {
    return this.repo.transaction(async (em) => {
      if (body.manage_system_domain_id) {
        const exists = await this.repo.domainExists(em, body.manage_system_domain_id);
        if (!exists)
          throw OnboardingErrors.INVALID({ manage_system_domain_id: 'is not an existing system domain' });
      }
      const fields = {
        code_key: body.code.toLowerCase(),
        code: body.code,
        valid_to: new Date(body.valid_to),
        value: body.value,
        billing_tier: body.billing_tier ?? null,
        credit_expiry_days: body.credit_expiry_days ?? null,
        do_not_delete: body.do_not_delete ?? false,
        freeze_date: body.freeze_date ? new Date(body.freeze_date) : null,
        is_plg: body.is_plg ?? null,
        manage_system_domain_id: body.manage_system_domain_id ?? null,
        billing_customer_id: body.billing_customer_id ?? null,
        crm_id: body.crm_id ?? null,
      };
      // the primary key (the lower-cased code) decides between two concurrent creations
      const row = await this.repo.insertReferralCode(em, fields).catch((e: unknown) => {
        throw isUniqueViolation(e) ? OnboardingErrors.CODE_EXISTS() : e;
      });
      return referralCodeView(row);
    });
  }

  async get(code: string): Promise<ReferralCodeDto> {
    const row = await this.find(this.repo.manager, code);
    if (!row) throw OnboardingErrors.CODE_NOT_FOUND();
    return referralCodeView(row);
  }

  async remove(code: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      const row = await this.find(em, code, true);
      if (!row) throw OnboardingErrors.CODE_NOT_FOUND();
      if (row.do_not_delete) throw OnboardingErrors.CODE_PROTECTED();
      await this.repo.deleteReferralCode(em, row.code_key);
    });
  }

  /** The code if it exists, whatever its validity (null for a malformed one: never looked up). */
  find(em: EntityManager, code: string, lock = false): Promise<ReferralCodeEntity | null> {
    if (typeof code !== 'string' || !CODE_SHAPE.test(code)) return Promise.resolve(null);
    return this.repo.referralCode(em, code.toLowerCase(), lock);
  }

  isValid(code: ReferralCodeEntity): boolean {
    return new Date(code.valid_to).getTime() > this.clock.now().getTime();
  }

  /**
   * A new domain and its administrator from a referral code. Super administrators may use any code;
   * administrators of the code's `manage_system_domain_id` domain may use that code; anyone else gets the same
   * 403 whether or not the code exists. The code must still be valid; the email must have no account.
   */
  async createDomain(
    auth: AuthContext,
    code: string,
    body: FromReferralCodeDto,
  ): Promise<SystemDomainFromTemplateDto> {
    const peek = await this.find(this.repo.manager, code);
    this.authorize(auth, peek);
    await this.passwords.assert(
      await this.newDomains.passwordDomains(this.repo.manager),
      body.admin_password,
      {
        field: 'admin_password',
        personal: [body.admin_email, body.admin_first_name, body.admin_last_name, body.name],
      },
    );
    const passwordHash = await hashPassword(body.admin_password);
    return this.repo.transaction(async (em) => {
      // locked so that a concurrent DELETE cannot remove it under the new domain
      const row = await this.find(em, code, true);
      this.authorize(auth, row);
      if (!this.isValid(row!)) throw OnboardingErrors.CODE_EXPIRED();
      const { view } = await this.newDomains.create(
        em,
        {
          name: body.name,
          country: body.country_code,
          code: row,
          description: body.description ?? null,
          billingTier: body.billing_tier ?? null,
        },
        {
          email: body.admin_email,
          first_name: body.admin_first_name,
          last_name: body.admin_last_name ?? null,
          password_hash: passwordHash,
        },
        auth.requestId,
      );
      return view;
    });
  }

  private authorize(auth: AuthContext, row: ReferralCodeEntity | null): asserts row is ReferralCodeEntity {
    if (auth.isSuperAdmin) {
      if (!row) throw OnboardingErrors.CODE_NOT_FOUND();
      return;
    }
    const partner = row?.manage_system_domain_id;
    if (!row || !partner || !auth.isAdmin || auth.systemDomainId !== partner) {
      throw OnboardingErrors.CODE_FORBIDDEN();
    }
  }
}

export function referralCodeView(c: ReferralCodeEntity): ReferralCodeDto {
  return {
    code: c.code,
    valid_to: wireDate(c.valid_to),
    value: c.value,
    billing_tier: c.billing_tier,
    credit_expiry_days: c.credit_expiry_days,
    do_not_delete: c.do_not_delete,
    freeze_date: wireDateOrNull(c.freeze_date),
    is_plg: c.is_plg,
    manage_system_domain_id: c.manage_system_domain_id,
    billing_customer_id: c.billing_customer_id,
    crm_id: c.crm_id,
    date_created: wireDate(c.date_created),
    date_modified: wireDate(c.date_modified),
  };
}
