import { Module } from '@nestjs/common';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { SystemDomainsModule } from '../../accounts/system-domains/system-domains.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { ScimDiscoveryController } from './scim-discovery.controller.js';
import { ScimGroupsController } from './scim-groups.controller.js';
import { ScimGroupsService } from './scim-groups.service.js';
import { SCIM_BASE } from './scim-routes.js';
import { ScimTokensController } from './scim-tokens.controller.js';
import { ScimTokensService } from './scim-tokens.service.js';
import { ScimUsersController } from './scim-users.controller.js';
import { ScimUsersService } from './scim-users.service.js';
import { ScimRepository } from './scim.repository.js';

/**
 * SCIM 2.0 (RFC 7643 / 7644, docs/scim.md): a domain's identity provider provisions the accounts the domain
 * owns and its groups under /API/scim/v2, with a provisioning token from
 * /API/auth/v1/system_domains/current/scim/tokens/ (no other route accepts that token kind).
 */
@Module({
  imports: [SystemDomainsModule, AuditModule, EventsModule],
  controllers: [ScimTokensController, ScimDiscoveryController, ScimUsersController, ScimGroupsController],
  providers: [
    {
      provide: SCIM_BASE,
      useFactory: (config: BaseConfig) => `${config.http.publicBaseUrl}/API/scim/v2`,
      inject: [APP_CONFIG],
    },
    ScimRepository,
    ScimTokensService,
    ScimUsersService,
    ScimGroupsService,
  ],
})
export class ScimModule {}
