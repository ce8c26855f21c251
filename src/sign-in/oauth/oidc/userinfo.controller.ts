import { Controller, Header, UseFilters } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import type { AuthContext } from '../../../base/common/auth/auth-context.js';
import { type AuthenticatedOptions } from '../../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../../base/common/auth/caller.decorator.js';
import { UserinfoDto } from './oidc.dto.js';
import { OidcErrors } from './oidc.errors.js';
import { UserinfoService } from './userinfo.service.js';
import { UserinfoExceptionFilter } from './userinfo-exception.filter.js';
import { Route } from '../../../base/common/http/route.js';

/**
 * An app's OAuth access token with `openid` (OpenID Connect Core §5.3): a person's sign-in, a PAT or a
 * token without `openid` is refused, with RFC 6750's `WWW-Authenticate` (UserinfoExceptionFilter).
 */
const USERINFO: AuthenticatedOptions = {
  kinds: ['OAUTH'],
  kindRefused: OidcErrors.NOT_AN_ACCESS_TOKEN,
  scopes: ['openid'],
  anyScope: true,
};

@ApiTags('oauth')
@ApiExtraModels(UserinfoDto)
@UseFilters(UserinfoExceptionFilter)
@Controller('API/auth/v1/oauth/userinfo')
export class UserinfoController {
  constructor(private readonly userinfo: UserinfoService) {}

  @Route.get({
    summary: 'OpenID Connect userinfo: `sub` and the claims of the granted scopes',
    policy: USERINFO,
    ok: UserinfoDto,
  })
  @Header('Cache-Control', 'no-store')
  getUserinfo(@Caller() caller: AuthContext): Promise<UserinfoDto> {
    return this.userinfo.of(caller);
  }

  @Route.post({
    summary: 'OpenID Connect userinfo (POST form, Core §5.3.1)',
    policy: USERINFO,
    ok: UserinfoDto,
  })
  @Header('Cache-Control', 'no-store')
  postUserinfo(@Caller() caller: AuthContext): Promise<UserinfoDto> {
    return this.userinfo.of(caller);
  }
}
