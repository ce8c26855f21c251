import { Module } from '@nestjs/common';
import { LoginModule } from '../login/login.module.js';
import { IdentityProvidersModule } from '../identity-providers/identity-providers.module.js';
import { MfaModule } from '../mfa/mfa.module.js';
import { DirectoriesModule } from '../directories/directories.module.js';
import { FederationModule } from '../federation/federation.module.js';
import { OidcProvidersModule } from '../oidc-providers/oidc-providers.module.js';
import { ConsentFederation } from './consent/consent-federation.service.js';
import { ConsentPasskeys } from './consent/consent-passkeys.service.js';
import { PasskeysModule } from '../passkeys/passkeys.module.js';
import { SystemDomainsModule } from '../../accounts/system-domains/system-domains.module.js';
import { AuthorizationRequestService } from './authorization-request.service.js';
import { AuthorizeApiController } from './authorize-api.controller.js';
import { ClientAuthService } from './client-auth.service.js';
import { ConsentController, ConsentPasskeyOptionsController } from './consent/consent.controller.js';
import { ConsentFlow } from './consent/consent-flow.service.js';
import { ConsentSessionService } from './consent/consent-session.service.js';
import { CorsPreflightMiddleware } from '../../base/common/http/cors.js';
import { AuthorizationCodeGrant } from './grants/authorization-code.grant.js';
import { ClientCredentialsGrant } from './grants/client-credentials.grant.js';
import { GrantRegistry } from './grants/grant-registry.js';
import { RefreshTokenGrant } from './grants/refresh-token.grant.js';
import { MetadataController } from './metadata.controller.js';
import { OAuthTokensService } from './oauth-tokens.service.js';
import { OAuthRepository } from './oauth.repository.js';
import { RefreshTokenController } from './refresh-token.controller.js';
import { TokenEndpointController } from './token-endpoint.controller.js';
import { TokenEndpointService } from './token-endpoint.service.js';
import { LogoutController } from './consent/logout.controller.js';
import { LogoutFlow } from './consent/logout-flow.service.js';
import { ConsentMemoryService } from './oidc/consent-memory.service.js';
import { IdTokenService } from './oidc/id-token.service.js';
import { OidcRepository } from './oidc/oidc.repository.js';
import { UserinfoController } from './oidc/userinfo.controller.js';
import { UserinfoService } from './oidc/userinfo.service.js';

@Module({
  imports: [
    SystemDomainsModule,
    LoginModule,
    MfaModule,
    IdentityProvidersModule,
    FederationModule,
    DirectoriesModule,
    OidcProvidersModule,
    PasskeysModule,
  ],
  controllers: [
    TokenEndpointController,
    AuthorizeApiController,
    ConsentController,
    ConsentPasskeyOptionsController,
    MetadataController,
    RefreshTokenController,
    UserinfoController,
    LogoutController,
  ],
  providers: [
    ConsentFederation,
    ConsentPasskeys,
    ClientAuthService,
    GrantRegistry,
    ClientCredentialsGrant,
    AuthorizationCodeGrant,
    RefreshTokenGrant,
    OAuthTokensService,
    OAuthRepository,
    TokenEndpointService,
    AuthorizationRequestService,
    ConsentSessionService,
    ConsentFlow,
    CorsPreflightMiddleware,
    // OpenID Connect (oidc/): id_tokens, remembered consent, userinfo; RP-initiated logout (consent/)
    OidcRepository,
    IdTokenService,
    ConsentMemoryService,
    UserinfoService,
    LogoutFlow,
  ],
})
export class OAuthModule {}
