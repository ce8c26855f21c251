import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { UserDto } from '../../accounts/users/dto/user.dto.js';
import { UserSamlIdentityDto } from './dto/user-saml-identity.dto.js';
import { UserSamlIdentityService } from './user-saml-identity.service.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
const userAccess = { entity: 'user' as const, param: 'user_id' };

/** A user's single-sign-on identity (the users service's path; SAML sign-in reads it). */
@ApiTags('users')
@ApiErrors(400)
@Controller('API/users/v1/users')
export class UserSamlController {
  constructor(private readonly identities: UserSamlIdentityService) {}

  @Route.put('current/saml', {
    summary:
      'Link your own account to an identity provider of the current domain, with the email it asserts for you: from a recent sign-in with the service’s own password (and second factor where enrolled), never a single sign-on. Only such a link lets a domain’s IdP sign in an account that also belongs to other domains, or a super administrator (whose single-sign-on session then has no super administrator’s power and changes no credential)',
    policy: { kinds: ['LOGIN'], accountChange: true },
    ok: UserDto,
    errors: [
      {
        403: 'Not your own recent sign-in with the service’s password, or a single-sign-on session',
        404: 'No such identity provider in this domain',
        409: 'The IdP already signs another user in with this email',
      },
    ],
  })
  setCurrentUserSamlIdentity(
    @Body() body: UserSamlIdentityDto,
    @Caller() caller: AuthContext,
  ): Promise<UserDto> {
    return this.identities.setOwn(caller, body);
  }

  @Route.delete('current/saml', {
    summary: 'Remove your own single-sign-on identity in the current domain',
    policy: { kinds: ['LOGIN'] },
    noContent: 'Removed',
    errors: [{ 404: 'No identity set' }],
  })
  deleteCurrentUserSamlIdentity(@Caller() caller: AuthContext): Promise<void> {
    return this.identities.removeOwn(caller);
  }

  @Route.put(':user_id/saml', {
    summary:
      'Set a user’s single-sign-on identity in the caller’s domain: the IdP (of this domain) and the email it asserts for them; administrators only, and only for an account this domain owns (no other domain, no super administrator: that person links it themselves at users/current/saml/)',
    policy: { admin: true, roles: ['can_write_users'], access: userAccess },
    ok: UserDto,
    errors: [
      403,
      {
        404: 'No such user or identity provider in this domain',
        409: 'The IdP already signs another user in with this email',
      },
    ],
  })
  setUserSamlIdentity(
    @Param('user_id', uuid) id: string,
    @Body() body: UserSamlIdentityDto,
    @Caller() caller: AuthContext,
  ): Promise<UserDto> {
    return this.identities.set(caller, id, body);
  }

  @Route.delete(':user_id/saml', {
    summary: 'Remove a user’s single-sign-on identity in the caller’s domain',
    policy: { admin: true, roles: ['can_write_users'], access: userAccess },
    noContent: 'Removed',
    errors: [403, { 404: 'No such user, or no identity set' }],
  })
  deleteUserSamlIdentity(@Param('user_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.identities.remove(caller, id);
  }
}
