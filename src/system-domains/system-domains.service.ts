import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppEntity } from '../apps/app.entity.js';
import { AuthErrors } from '../common/auth/auth.errors.js';
import { liveDomainSql } from './domain-status.js';
import { SystemDomainEntity } from './system-domain.entity.js';

export const BUILTIN_APP_NAME = 'Portcullis sign-in';

@Injectable()
export class SystemDomainsService {
  /** Creates a domain with its built-in sign-in app (password and SSO sessions are issued under it). */
  async create(em: EntityManager, fields: Partial<SystemDomainEntity> & { name: string; base_url: string }) {
    const domain = await em
      .getRepository(SystemDomainEntity)
      .save(em.getRepository(SystemDomainEntity).create(fields));
    await em.getRepository(AppEntity).insert({
      system_domain_id: domain.id,
      name: BUILTIN_APP_NAME,
      type: 'PAT',
      is_builtin: true,
    });
    return domain;
  }

  /**
   * The domain's built-in sign-in app, under which every sign-in token is issued; never for a deactivated
   * domain (also by a passed deactivate_date), whichever flow asks: 401, as the token would get at once.
   */
  async builtinAppId(em: EntityManager, systemDomainId: string): Promise<string> {
    const [app] = (await em.query(
      `SELECT a.id FROM apps a JOIN system_domains d ON d.id = a.system_domain_id
        WHERE a.system_domain_id = $1 AND a.is_builtin AND ${liveDomainSql('d')}`,
      [systemDomainId],
    )) as { id: string }[];
    if (!app) throw AuthErrors.DOMAIN_DEACTIVATED();
    return app.id;
  }
}
