import { applyDecorators, Controller, Header, UseFilters } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedOptions } from '../../../base/common/auth/authenticated.decorator.js';
import { input, ServiceRoutes } from '../../../base/common/http/service-routes.js';
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
const userinfo = ServiceRoutes<UserinfoService>('userinfo');

@ApiTags('oauth')
@ApiExtraModels(UserinfoDto)
@UseFilters(UserinfoExceptionFilter)
@Controller('API/auth/v1/oauth/userinfo')
export class UserinfoController extends userinfo.handlers({
  // the stack `@Route.get @Header`, applied bottom up as written
  getUserinfo: userinfo.call(
    'of',
    applyDecorators(
      Header('Cache-Control', 'no-store'),
      Route.get({
        summary: 'OpenID Connect userinfo: `sub` and the claims of the granted scopes',
        policy: USERINFO,
        ok: UserinfoDto,
      }),
    ),
    input.caller,
  ),
  postUserinfo: userinfo.call(
    'of',
    applyDecorators(
      Header('Cache-Control', 'no-store'),
      Route.post({
        summary: 'OpenID Connect userinfo (POST form, Core §5.3.1)',
        policy: USERINFO,
        ok: UserinfoDto,
      }),
    ),
    input.caller,
  ),
}) {
  constructor(protected readonly userinfo: UserinfoService) {
    super();
  }
}
