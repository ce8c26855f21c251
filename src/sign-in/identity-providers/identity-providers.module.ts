import { provideConfig } from '../../base/config/namespace.js';
import { DNS_CONFIG } from './dns-config.js';
import { Module } from '@nestjs/common';
import { AccessService } from '../../base/common/auth/access.service.js';
import { LoginModule } from '../login/login.module.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { DnsTxt } from './dns-txt.js';
import { DomainBindingsRepository } from './domain-bindings.repository.js';
import { DomainBindingsService } from './domain-bindings.service.js';
import { IdentityProvidersController } from './identity-providers.controller.js';
import { IdpErrors } from './identity-providers.errors.js';
import { IdentityProvidersRepository } from './identity-providers.repository.js';
import { IdentityProvidersService } from './identity-providers.service.js';
import { SamlController } from './saml.controller.js';
import { SamlService } from './saml.service.js';
import { SsoLoginService } from './sso-login.service.js';
import { UserSamlController } from './user-saml.controller.js';
import { UserSamlIdentityService } from './user-saml-identity.service.js';

/**
 * SAML single sign-on (issue 19): identity providers per domain and the email domains routed to them once
 * verified (administrators; a DNS TXT challenge, or a super administrator's decision), the public SAML
 * endpoints (sso, acs, metadata, slo, logout, login routing, and the exchange of the ACS's single-use code for
 * a Token through SignInService), and users' SSO identities (users/{id}/saml/).
 */
@Module({
  imports: [LoginModule, EventsModule, AuditModule],
  controllers: [IdentityProvidersController, SamlController, UserSamlController],
  providers: [
    provideConfig(DNS_CONFIG),
    IdentityProvidersService,
    DomainBindingsService,
    DomainBindingsRepository,
    DnsTxt,
    IdentityProvidersRepository,
    SamlService,
    SsoLoginService,
    UserSamlIdentityService,
  ],
  exports: [SsoLoginService],
})
export class IdentityProvidersModule {
  constructor(access: AccessService, repo: IdentityProvidersRepository) {
    access.register('identity_provider', {
      label: 'Identity provider',
      ownerOnly: false,
      notFound: () => IdpErrors.NOT_FOUND(),
      find: (auth, ids) => repo.idsInDomain(ids, auth.systemDomainId),
    });
  }
}
