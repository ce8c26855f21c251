import { Body, Delete, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import {
  DomainBindingDto,
  DomainIdentityProviderMapDto,
  UnbindDomainQueryDto,
  VerifyDomainDto,
} from './dto/identity-provider.dto.js';
import type { DomainBindingsService } from './domain-bindings.service.js';

export const admin = { admin: true } as const;

/**
 * The domain binding routes of `IdentityProvidersController` (through `IdpByIdRoutes`), which extends this
 * class: Nest registers a controller's own routes first and inherited ones after, so the route order and the
 * route-policy keys (`<Controller>.<method>`) stay as they were.
 */
export abstract class DomainBindingRoutes {
  protected abstract readonly bindings: DomainBindingsService;

  @Post('domains')
  @Authenticated(admin)
  @ApiOperation({
    summary:
      'Claim an email domain for one of the caller’s identity providers: verified false with the DNS TXT ' +
      'record to publish (verification); it routes no one until verified. One IdP per name and domain; a ' +
      'name verified elsewhere, or that people of other domains or a super administrator use, is refused ' +
      'unless a super administrator decides (force: bound and verified at once)',
  })
  @ApiCreatedResponse({ type: DomainBindingDto })
  @ApiErrors(409, {
    403: 'force from someone not a super administrator',
    404: 'No such identity provider in the caller’s domain',
  })
  bindIdentityProviderDomain(
    @Body() body: DomainIdentityProviderMapDto,
    @Caller() caller: AuthContext,
  ): Promise<DomainBindingDto> {
    return this.bindings.bind(caller, body);
  }

  @Post('domains/:domain/verify')
  @HttpCode(200)
  @Authenticated(admin)
  @ApiOperation({
    summary:
      'Verify an email domain binding: the TXT record _portcullis-challenge.<domain> must carry its value ' +
      '(looked up now), or a super administrator decides (force). The caller’s domain’s binding; super ' +
      'administrators may name another domain’s',
  })
  @ApiOkResponse({ type: DomainBindingDto })
  @ApiErrors(404, {
    403: 'force from someone not a super administrator',
    409: 'The record is not there (yet), or another domain holds the name verified',
    503: 'The DNS lookup did not complete (no answer within DNS_TIMEOUT_MS, or the resolvers failed)',
  })
  verifyIdentityProviderDomain(
    @Param('domain') domain: string,
    @Body() body: VerifyDomainDto,
    @Caller() caller: AuthContext,
  ): Promise<DomainBindingDto> {
    return this.bindings.verify(caller, domain, body);
  }

  @Delete('domains/:domain')
  @HttpCode(204)
  @Authenticated(admin)
  @ApiOperation({
    summary:
      'Unbind an email domain of the caller’s domain; super administrators any domain’s (system_domain_id), ' +
      'or without it the name’s bindings in every domain',
  })
  @ApiNoContentResponse({ description: 'Unbound' })
  @ApiErrors(404)
  unbindIdentityProviderDomain(
    @Param('domain') domain: string,
    @Query() q: UnbindDomainQueryDto,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.bindings.unbind(caller, domain, q.system_domain_id);
  }
}
