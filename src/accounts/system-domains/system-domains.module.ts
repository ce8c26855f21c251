import { provideConfig } from '../../base/config/namespace.js';
import { BOOTSTRAP_CONFIG } from './system-domains-config.js';
import { Module } from '@nestjs/common';
import { AccessService } from '../../base/common/auth/access.service.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { BootstrapService } from './bootstrap.service.js';
import { SystemDomainAdminService } from './system-domain-admin.service.js';
import { SystemDomainsController } from './system-domains.controller.js';
import { SystemDomainsErrors } from './system-domains.errors.js';
import { SystemDomainsRepository } from './system-domains.repository.js';
import { SystemDomainsService } from './system-domains.service.js';

/** The core of tenancy: creating a domain (with its built-in app) and the first start. Imported widely. */
@Module({
  providers: [
    provideConfig(BOOTSTRAP_CONFIG),
    SystemDomainsService,
    SystemDomainsRepository,
    BootstrapService,
  ],
  // the repository for DomainScheduleModule, of this feature too
  exports: [SystemDomainsService, SystemDomainsRepository],
})
export class SystemDomainsModule {}

/**
 * The administration API of system domains (`/API/auth/v1/system_domains`), a feature module of its own so
 * that it is mounted after the modules that serve fixed paths below it (FEATURE_MODULES order). Registers the
 * `system_domain` access checker: super administrators reach every domain, anyone else only the domain of
 * their token; anything else is the wire's 404 "System domain does not exist".
 */
@Module({
  imports: [SystemDomainsModule, EventsModule, AuditModule],
  controllers: [SystemDomainsController],
  providers: [SystemDomainAdminService],
})
export class SystemDomainAdminModule {
  constructor(access: AccessService, repo: SystemDomainsRepository) {
    access.register('system_domain', {
      label: 'System domain',
      notFound: () => SystemDomainsErrors.NOT_FOUND(),
      find: async (auth, ids) => {
        if (!auth.isSuperAdmin && ids.some((id) => id !== auth.systemDomainId)) {
          throw SystemDomainsErrors.NOT_FOUND();
        }
        const rows = await repo.existing(ids);
        if (rows.length !== ids.length) throw SystemDomainsErrors.NOT_FOUND();
        return rows;
      },
    });
  }
}
