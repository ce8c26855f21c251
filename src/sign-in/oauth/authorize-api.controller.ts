import { Body, Controller, Header, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { AuthorizeErrors } from './authorize.errors.js';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { Authenticated, type AuthenticatedOptions } from '../../base/common/auth/authenticated.decorator.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import {
  AuthorizationRequestError,
  AuthorizationRequestService,
  type ValidAuthorization,
} from './authorization-request.service.js';
import {
  AuthorizationDecisionDto,
  AuthorizationQueryDto,
  AuthorizationRedirectDto,
  PendingAuthorizationDto,
} from './dto/authorize.dto.js';
import { decisionOf, mergeDecision, requestOf } from './authorization-decision.js';
import { Route } from '../../base/common/http/route.js';

/**
 * Only a person's sign-in session may approve (or see what it would approve): OAuth and service-account
 * tokens cannot grant access. A declared kind, refused by the guard (CredentialKindStep) with this API's answer.
 */
const APPROVER: AuthenticatedOptions = { kinds: ['LOGIN'], kindRefused: AuthorizeErrors.LOGIN_ONLY };

/** For consent pages rendered by a client of this API: describe a pending request, record the decision. */
@ApiTags('oauth')
@ApiErrors(400)
@Controller('API/auth/v1/oauth/authorize')
export class AuthorizeApiController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly requests: AuthorizationRequestService,
  ) {}

  @Route.get({
    summary: 'Describe a pending authorization request (app name, scopes in plain words)',
    policy: APPROVER,
    ok: PendingAuthorizationDto,
  })
  async describeAuthorization(
    @Query() q: AuthorizationQueryDto,
    @Caller() caller: AuthContext,
  ): Promise<PendingAuthorizationDto> {
    const v = await this.validate(q, caller);
    return {
      client_id: v.app.id,
      client: { name: v.app.name },
      app_name: v.app.name,
      app_url: v.app.url,
      redirect_uri: v.redirectUri,
      scopes: [...v.scopes],
      scope_descriptions: this.requests.describeScopes(v.scopes),
      state: v.state,
    };
  }

  @Post()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store') // the answer carries a code
  @Authenticated({ ...APPROVER, whileFrozen: true })
  @ApiOperation({
    summary: 'Record the signed-in user’s decision; Allow issues a 60-second code',
    description:
      'The request parameters and the decision may come in the query string or in the body (JSON or ' +
      'form-encoded); one given in both must have the same value. `confirm` present (any value) allows, ' +
      'absent denies; `decision: allow|deny` is the earlier form and must agree with `confirm` if both are given.',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({
    type: AuthorizationDecisionDto,
    required: false,
    description: 'Optional: all may be in the query',
  })
  @ApiOkResponse({ type: AuthorizationRedirectDto })
  async decideAuthorization(
    @Query() query: AuthorizationDecisionDto,
    @Body() body: AuthorizationDecisionDto,
    @Caller() caller: AuthContext,
  ): Promise<AuthorizationRedirectDto> {
    const merged = mergeDecision(query, body ?? {});
    const allow = decisionOf(merged);
    const v = await this.validate(requestOf(merged), caller);
    const url = await this.requests.decide(v, caller, allow, this.config.http.publicBaseUrl).catch(rethrow);
    return { redirect_uri: url, redirect_to: url };
  }

  private async validate(q: AuthorizationQueryDto, auth: AuthContext): Promise<ValidAuthorization> {
    const v = await this.requests.validate(q).catch(rethrow);
    await this.requests.requireApprover(v, auth).catch(rethrow);
    return v;
  }
}

function rethrow(e: unknown): never {
  if (e instanceof AuthorizationRequestError) {
    const message = `${e.title}: ${e.detail}`;
    throw e.status === 403 ? AuthorizeErrors.WRONG_DOMAIN(message) : AuthorizeErrors.INVALID_REQUEST(message);
  }
  throw e;
}
