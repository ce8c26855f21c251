import { Module } from '@nestjs/common';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { FederationModule } from '../federation/federation.module.js';
import { OidcLoginController } from './oidc-login.controller.js';
import { OidcLoginService } from './oidc-login.service.js';
import { OidcProvidersController } from './oidc-providers.controller.js';
import { OidcProvidersRepository } from './oidc-providers.repository.js';
import { OidcProvidersService } from './oidc-providers.service.js';

/** External OpenID providers per domain and the sign-in through them (docs/federated-login.md). */
@Module({
  imports: [FederationModule, AuditModule],
  controllers: [OidcProvidersController, OidcLoginController],
  providers: [OidcProvidersService, OidcProvidersRepository, OidcLoginService],
  exports: [OidcLoginService],
})
export class OidcProvidersModule {}
