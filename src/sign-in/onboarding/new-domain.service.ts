import type { ConfigOf } from '../../base/config/namespace.js';
import { REGISTRATION_CONFIG } from './registration-config.js';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { wireDate } from '../../base/common/http/wire-date.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { SystemDomainsService } from '../../accounts/system-domains/system-domains.service.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import { userView } from '../../accounts/users/user-view.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { domainFromTemplate, type NewDomain } from './domain-from-template.js';
import type { SystemDomainFromTemplateDto } from './dto/domain-from-template.dto.js';
import { OnboardingErrors } from './onboarding.errors.js';
import { OnboardingRepository } from './onboarding.repository.js';

export interface NewAdmin {
  email: string;
  first_name: string | null;
  last_name: string | null;
  /** argon2id, already judged by the password policy. */
  password_hash: string;
}

/**
 * A new domain and its first administrator, in the caller's transaction: the domain from the template, a new
 * account (never an existing one: an email that has an account is refused), its membership as the domain's
 * administrator, the domain's `creating_user_id`, and the webhook events.
 */
@Injectable()
export class NewDomainService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    @Inject(REGISTRATION_CONFIG.token)
    private readonly registrationConfig: ConfigOf<typeof REGISTRATION_CONFIG>,
    private readonly domains: SystemDomainsService,
    private readonly events: WebhookEventsService,
    private readonly repo: OnboardingRepository,
  ) {}

  /** The domains whose PasswordChecks a new domain's first password must pass: its template's, if any. */
  async passwordDomains(em: EntityManager): Promise<string[]> {
    const template = await this.repo.template(em, this.registrationConfig.templateDomainId);
    return template ? [template.id] : [];
  }

  async create(
    em: EntityManager,
    d: Omit<NewDomain, 'baseUrl'>,
    admin: NewAdmin,
    requestId: string | null,
  ): Promise<{ domain: SystemDomainEntity; user: UserEntity; view: SystemDomainFromTemplateDto }> {
    // the users row lock is not needed: the unique email index refuses a concurrent twin
    if (await this.repo.accountExists(em, admin.email)) {
      throw OnboardingErrors.ACCOUNT_EXISTS();
    }
    const template = await this.repo.template(em, this.registrationConfig.templateDomainId);
    const domain = await domainFromTemplate(em, this.domains, template, {
      ...d,
      baseUrl: this.config.http.publicBaseUrl,
    });
    const userId = await this.repo
      .insertAccount(em, {
        email: admin.email,
        first_name: admin.first_name,
        last_name: admin.last_name,
        password_hash: admin.password_hash,
        status: 'ACTIVE',
        is_super_admin: false,
        system_domain_id: domain.id,
        last_login: null,
      })
      .catch((e: unknown) => {
        throw isUniqueViolation(e) ? OnboardingErrors.ACCOUNT_EXISTS() : e;
      });
    const created = await this.repo.makeFirstAdmin(em, userId, domain.id);
    domain.creating_user_id = userId;
    const view = fromTemplateView(domain, created);
    const at = { objectId: domain.id, realm: 'system_domain', operation: 'create', requestId };
    await this.events.record(em, {
      ...at,
      systemDomainId: domain.id,
      eventType: 'system_domains',
      data: { ...view },
    });
    // a partner hears of the customer domains created with its codes
    const partner = d.code?.manage_system_domain_id;
    if (partner && partner !== domain.id) {
      await this.events.record(em, {
        ...at,
        systemDomainId: partner,
        eventType: 'system_domains',
        data: { ...view },
      });
    }
    await this.events.record(em, {
      systemDomainId: domain.id,
      objectId: created.id,
      realm: 'user',
      operation: 'create',
      eventType: 'users',
      data: { ...userView(created, domain.id, true) },
      requestId,
    });
    return { domain, user: created, view };
  }
}

export function fromTemplateView(d: SystemDomainEntity, admin: UserEntity): SystemDomainFromTemplateDto {
  return {
    id: d.id,
    name: d.name,
    base_url: d.base_url,
    description: d.description,
    status: d.status,
    type: d.type,
    billing_tier: d.billing_tier,
    custom_terms: d.custom_terms,
    admin_id: admin.id,
    admin_email: admin.email,
    admin_first_name: admin.first_name,
    admin_last_name: admin.last_name,
    date_created: wireDate(d.date_created),
    date_modified: wireDate(d.date_modified),
  };
}
