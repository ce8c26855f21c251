import { Module } from '@nestjs/common';
import { provideConfig } from '../../base/config/namespace.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { LoginModule } from '../login/login.module.js';
import { FEDERATION_CONFIG } from './federation-config.js';
import { FederatedSignIn } from './federated-sign-in.service.js';
import { FederationRepository } from './federation.repository.js';

/**
 * What the federated authenticators share (docs/federated-login.md): the SSRF rule's configuration, the routing
 * of an email to its domain's authenticator, and the admission of a verified person through the SignInAuthority
 * with the domain's group mappings.
 */
@Module({
  imports: [LoginModule, EventsModule, AuditModule],
  providers: [provideConfig(FEDERATION_CONFIG), FederationRepository, FederatedSignIn],
  exports: [FEDERATION_CONFIG.token, FederatedSignIn, LoginModule],
})
export class FederationModule {}
