import { Body, Controller, Get, Header, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { AuthorizeErrors } from './authorize.errors.js';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthContext } from '../common/auth/auth-context.js';
import { Caller } from '../common/auth/caller.decorator.js';
import { Authenticated } from '../common/auth/authenticated.decorator.js';
import { ErrorsDto } from '../common/errors/errors.dto.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
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

/** For consent pages rendered by a client of this API: describe a pending request, record the decision. */
@ApiTags('oauth')
@ApiBadRequestResponse({ type: ErrorsDto })
@Controller('API/auth/v1/oauth/authorize')
export class AuthorizeApiController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly requests: AuthorizationRequestService,
  ) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: 'Describe a pending authorization request (app name, scopes in plain words)' })
  @ApiOkResponse({ type: PendingAuthorizationDto })
  async describeAuthorization(
    @Query() q: AuthorizationQueryDto,
    @Caller() caller: AuthContext,
  ): Promise<PendingAuthorizationDto> {
    const v = await this.validate(q, caller);
    return {
      client_id: v.app.id,
      app_name: v.app.name,
      app_url: v.app.url,
      redirect_uri: v.redirectUri,
      scopes: this.requests.describeScopes(v.scopes),
      state: v.state,
    };
  }

  @Post()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store') // the answer carries a code
  @Authenticated()
  @ApiOperation({ summary: 'Record the signed-in user’s decision; Allow issues a 60-second code' })
  @ApiOkResponse({ type: AuthorizationRedirectDto })
  async decideAuthorization(
    @Body() body: AuthorizationDecisionDto,
    @Caller() caller: AuthContext,
  ): Promise<AuthorizationRedirectDto> {
    const auth = caller;
    const v = await this.validate(body, auth);
    const redirect_to = await this.requests
      .decide(v, auth.userId, auth.systemDomains, body.decision === 'allow', this.config.http.publicBaseUrl)
      .catch(rethrow);
    return { redirect_to };
  }

  /** Only a person's sign-in session may approve: OAuth and service-account tokens cannot grant access. */
  private async validate(q: AuthorizationQueryDto, auth: AuthContext): Promise<ValidAuthorization> {
    if (auth.kind !== 'LOGIN') throw AuthorizeErrors.LOGIN_ONLY();
    const v = await this.requests.validate(q).catch(rethrow);
    try {
      this.requests.requireSameDomain(v, auth.systemDomains);
    } catch (e) {
      rethrow(e);
    }
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
