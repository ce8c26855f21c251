import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../base/common/auth/authenticated.decorator.js';
import { SCOPE_NAMES } from '../../base/common/auth/scopes.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { AuthorizationServerMetadataDto } from './dto/oauth.dto.js';
import { GrantRegistry } from './grants/grant-registry.js';

@ApiTags('oauth')
@Public()
@Controller('.well-known/oauth-authorization-server')
export class MetadataController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly grants: GrantRegistry,
  ) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=300')
  // a public document: browser apps discover the server cross-origin
  @Header('Access-Control-Allow-Origin', '*')
  @ApiOperation({ summary: 'RFC 8414 authorization server metadata' })
  @ApiOkResponse({ type: AuthorizationServerMetadataDto })
  getAuthorizationServerMetadata(): AuthorizationServerMetadataDto {
    const base = this.config.http.publicBaseUrl;
    const clientAuth = ['client_secret_basic', 'client_secret_post', 'none'];
    return {
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/API/auth/v1/oauth/token/`,
      jwks_uri: `${base}/API/auth/v1/oauth/jwks/`,
      revocation_endpoint: `${base}/API/auth/v1/oauth/revoke/`,
      introspection_endpoint: `${base}/API/auth/v1/oauth/introspect/`,
      scopes_supported: SCOPE_NAMES,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: this.grants.grantTypes(),
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: clientAuth,
      revocation_endpoint_auth_methods_supported: clientAuth,
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${base}/API/auth/spec/ui/`,
    };
  }
}
