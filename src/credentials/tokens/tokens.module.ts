import { AccessService } from '../../base/common/auth/access.service.js';
import { Global, Module } from '@nestjs/common';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { ActingRightsService } from './acting-rights.service.js';
import { TokenQueriesService } from './token-queries.service.js';
import { TokensRepository } from './tokens.repository.js';
import { TokensService } from './tokens.service.js';

/** Global: the request guard itself (JwtStrategy, in the core module) looks every token up through it. */
@Global()
@Module({
  imports: [EventsModule, AuditModule],
  providers: [TokensRepository, TokensService, TokenQueriesService, ActingRightsService],
  exports: [TokensService, TokenQueriesService, ActingRightsService],
})
export class TokensModule {
  constructor(access: AccessService) {
    access.registerQuery(
      'token',
      'Token',
      // a domain's provisioning tokens are listed and revoked by its SCIM token routes (sign-in/scim/) only
      "SELECT id, user_id AS owner_id FROM tokens WHERE id = ANY($1::uuid[]) AND system_domain_id = $2 AND kind <> 'SCIM'",
      true,
    );
  }
}
