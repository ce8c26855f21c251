import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { UserDto } from '../../accounts/users/dto/user.dto.js';
import { UserSamlIdentityDto } from './dto/user-saml-identity.dto.js';
import { UserSamlIdentityService } from './user-saml-identity.service.js';
import { Route } from '../../base/common/http/route.js';

const userId = input.uuidParam('user_id');
const userAccess = { entity: 'user' as const, param: 'user_id' };
const identities = ServiceRoutes<UserSamlIdentityService>('identities');

/** A user's single-sign-on identity (the users service's path; SAML sign-in reads it). */
@ApiTags('users')
@ApiErrors(400)
@Controller('API/users/v1/users')
export class UserSamlController extends identities.handlers({
  setCurrentUserSamlIdentity: identities.call(
    'setOwn',
    Route.put('current/saml', {
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
    }),
    input.caller,
    input.body(UserSamlIdentityDto),
  ),
  deleteCurrentUserSamlIdentity: identities.call(
    'removeOwn',
    Route.delete('current/saml', {
      summary: 'Remove your own single-sign-on identity in the current domain',
      policy: { kinds: ['LOGIN'] },
      noContent: 'Removed',
      errors: [{ 404: 'No identity set' }],
    }),
    input.caller,
  ),
  setUserSamlIdentity: identities.call(
    'set',
    Route.put(':user_id/saml', {
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
    }),
    input.caller,
    userId,
    input.body(UserSamlIdentityDto),
  ),
  deleteUserSamlIdentity: identities.call(
    'remove',
    Route.delete(':user_id/saml', {
      summary: 'Remove a user’s single-sign-on identity in the caller’s domain',
      policy: { admin: true, roles: ['can_write_users'], access: userAccess },
      noContent: 'Removed',
      errors: [403, { 404: 'No such user, or no identity set' }],
    }),
    input.caller,
    userId,
  ),
}) {
  constructor(protected readonly identities: UserSamlIdentityService) {
    super();
  }
}
