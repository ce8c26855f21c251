import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuthErrors } from '../../base/common/auth/auth.errors.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { SystemDomainsRepository } from './system-domains.repository.js';

export const BUILTIN_APP_NAME = 'Portcullis sign-in';

@Injectable()
export class SystemDomainsService {
  constructor(private readonly repo: SystemDomainsRepository) {}

  /** Creates a domain with its built-in sign-in app (password and SSO sessions are issued under it). */
  async create(em: EntityManager, fields: Partial<SystemDomainEntity> & { name: string; base_url: string }) {
    const domain = await this.repo.createDomain(em, fields);
    await this.repo.insertBuiltinApp(em, domain.id, BUILTIN_APP_NAME);
    return domain;
  }

  /**
   * The domain's built-in sign-in app, under which every sign-in token is issued; never for a deactivated
   * domain (also by a passed deactivate_date), whichever flow asks: 401, as the token would get at once.
   */
  async builtinAppId(em: EntityManager, systemDomainId: string): Promise<string> {
    const appId = await this.repo.builtinAppOfLiveDomain(em, systemDomainId);
    if (appId === undefined) throw AuthErrors.DOMAIN_DEACTIVATED();
    return appId;
  }

  /** The domain (it exists: its id comes from a signed or stored record). */
  byId(id: string): Promise<SystemDomainEntity> {
    return this.repo.byId(id);
  }
}
