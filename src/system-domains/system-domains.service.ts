import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppEntity } from '../apps/app.entity.js';
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

  async builtinAppId(em: EntityManager, systemDomainId: string): Promise<string> {
    const app = await em
      .getRepository(AppEntity)
      .findOneByOrFail({ system_domain_id: systemDomainId, is_builtin: true });
    return app.id;
  }
}
