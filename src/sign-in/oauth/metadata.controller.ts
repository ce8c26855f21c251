import { applyDecorators, Controller, Get, Header, Inject, Param, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../../base/common/errors/api-error.js';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../base/common/auth/authenticated.decorator.js';
import { SCOPE_NAMES } from '../../base/common/auth/scopes.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { ACR_VALUES } from '../login/assurance.js';
import { AuthorizationServerMetadataDto, OpenIdConfigurationDto } from './dto/oauth.dto.js';
import { GrantRegistry } from './grants/grant-registry.js';

/** Every claim an id_token or the userinfo endpoint may carry (OpenID Connect Discovery `claims_supported`). */
export const CLAIMS_SUPPORTED = [
  'sub',
  'iss',
  'aud',
  'azp',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'acr',
  'amr',
  'sid',
  'at_hash',
  'email',
  'email_verified',
  'name',
  'given_name',
  'family_name',
];

/** A public document, cached five minutes; browser apps discover the server cross-origin. */
const PublicDocument = () =>
  applyDecorators(Header('Cache-Control', 'public, max-age=300'), Header('Access-Control-Allow-Origin', '*'));

/**
 * The server's metadata: RFC 8414 at `/.well-known/oauth-authorization-server` and OpenID Connect Discovery
 * at `/.well-known/openid-configuration`, one document built once so the two always agree (the OpenID one
 * adds its own fields). Where the issuer has a path (`PUBLIC_BASE_URL` https://host/auth behind a proxy that
 * keeps it), the documents are also at the places clients derive from it: `/auth/.well-known/openid-configuration`
 * (Discovery §4) and `/.well-known/oauth-authorization-server/auth` (RFC 8414 §3.1).
 */
@ApiTags('oauth')
@Public()
@Controller()
export class MetadataController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly grants: GrantRegistry,
  ) {}

  @Get('.well-known/oauth-authorization-server')
  @PublicDocument()
  @ApiOperation({ summary: 'RFC 8414 authorization server metadata' })
  @ApiOkResponse({ type: AuthorizationServerMetadataDto })
  getAuthorizationServerMetadata(): AuthorizationServerMetadataDto {
    return this.oauthMetadata();
  }

  @Get('.well-known/openid-configuration')
  @PublicDocument()
  @ApiOperation({
    summary: 'OpenID Connect Discovery 1.0: the OpenID Provider configuration (agrees with RFC 8414’s)',
  })
  @ApiOkResponse({ type: OpenIdConfigurationDto })
  getOpenIdConfiguration(): OpenIdConfigurationDto {
    const base = this.config.http.publicBaseUrl;
    return {
      ...this.oauthMetadata(),
      userinfo_endpoint: `${base}/API/auth/v1/oauth/userinfo/`,
      end_session_endpoint: `${base}/oauth/logout`,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
      claims_supported: CLAIMS_SUPPORTED,
      acr_values_supported: [...ACR_VALUES],
      prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
      claims_parameter_supported: false,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      frontchannel_logout_supported: false,
      backchannel_logout_supported: false,
    };
  }

  /** Discovery under the issuer's path (`{path}/.well-known/openid-configuration`): only that path. */
  @Get('*issuerPath/.well-known/openid-configuration')
  @PublicDocument()
  @ApiExcludeEndpoint() // the same document, at a path that exists only when PUBLIC_BASE_URL has one
  getOpenIdConfigurationUnderIssuerPath(
    @Param('issuerPath') issuerPath: string[],
    @Req() req: Request,
  ): OpenIdConfigurationDto {
    this.requireIssuerPath(issuerPath, req);
    return this.getOpenIdConfiguration();
  }

  /** RFC 8414 §3.1 for an issuer with a path: `/.well-known/oauth-authorization-server{path}`. */
  @Get('.well-known/oauth-authorization-server/*issuerPath')
  @PublicDocument()
  @ApiExcludeEndpoint()
  getAuthorizationServerMetadataForIssuerPath(
    @Param('issuerPath') issuerPath: string[],
    @Req() req: Request,
  ): AuthorizationServerMetadataDto {
    this.requireIssuerPath(issuerPath, req);
    return this.oauthMetadata();
  }

  /** Anything but the issuer's own path answers as a path no route has. */
  private requireIssuerPath(segments: string[], req: Request): void {
    const path = new URL(this.config.http.publicBaseUrl).pathname.replace(/\/+$/, '');
    if (path === '' || `/${segments.join('/')}` !== path) {
      throw new ApiError(404, [`Not found: ${req.method} ${req.path}`]);
    }
  }

  private oauthMetadata(): AuthorizationServerMetadataDto {
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
