import { Body, Controller, Get, Header, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AuthorizeErrors } from './authorize.errors.js';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-errors.js';
import type { AuthContext } from '../common/auth/auth-context.js';
import { Caller } from '../common/auth/caller.decorator.js';
import { Authenticated } from '../common/auth/authenticated.decorator.js';
import { RequestErrors } from '../common/errors/request.errors.js';
import { flattenValidationErrors } from '../common/errors/validation-exception.factory.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import {
  AuthorizationRequestError,
  AuthorizationRequestService,
  type ValidAuthorization,
} from './authorization-request.service.js';
import {
  AUTHORIZATION_PARAMS,
  AuthorizationDecisionDto,
  AuthorizationQueryDto,
  AuthorizationRedirectDto,
  PendingAuthorizationDto,
} from './dto/authorize.dto.js';

/** For consent pages rendered by a client of this API: describe a pending request, record the decision. */
@ApiTags('oauth')
@ApiErrors(400)
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
  @Authenticated({ whileFrozen: true })
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
    requireLogin(caller);
    const merged = mergeDecision(query, body ?? {});
    const allow = decisionOf(merged);
    const v = await this.validate(requestOf(merged), caller);
    const url = await this.requests.decide(v, caller, allow, this.config.http.publicBaseUrl).catch(rethrow);
    return { redirect_uri: url, redirect_to: url };
  }

  private async validate(q: AuthorizationQueryDto, auth: AuthContext): Promise<ValidAuthorization> {
    requireLogin(auth);
    const v = await this.requests.validate(q).catch(rethrow);
    await this.requests.requireApprover(v, auth).catch(rethrow);
    return v;
  }
}

/** Only a person's sign-in session may approve: OAuth and service-account tokens cannot grant access. */
function requireLogin(auth: AuthContext): void {
  if (auth.kind !== 'LOGIN') throw AuthorizeErrors.LOGIN_ONLY();
}

const MERGED_FIELDS = [...AUTHORIZATION_PARAMS, 'confirm', 'decision'] as const;

/**
 * One request out of the query string and the body: each field from wherever it was given. A field given in
 * both with different values is refused rather than one silently winning (which would let a query string
 * the user never saw steer what the body approved).
 */
function mergeDecision(
  query: AuthorizationDecisionDto,
  body: AuthorizationDecisionDto,
): AuthorizationDecisionDto {
  const merged: Record<string, string | undefined> = {};
  const conflicts: Record<string, string> = {};
  for (const f of MERGED_FIELDS) {
    const a = query[f];
    const b = body[f];
    if (a !== undefined && b !== undefined && a !== b) {
      conflicts[f] = 'given in the query string and in the body with different values';
    }
    merged[f] = b ?? a;
  }
  if (Object.keys(conflicts).length) throw RequestErrors.INVALID(conflicts);
  return merged as AuthorizationDecisionDto;
}

/** `confirm` present allows, absent denies; `decision` (the earlier form) must agree when both are given. */
function decisionOf(d: AuthorizationDecisionDto): boolean {
  const confirmed = d.confirm !== undefined;
  if (d.decision === undefined) return confirmed;
  if (confirmed && d.decision !== 'allow') {
    throw RequestErrors.INVALID({ decision: 'disagrees with confirm (present means allow)' });
  }
  return d.decision === 'allow';
}

/** The merged request must be complete, with the same field errors GET answers for a missing parameter. */
function requestOf(d: AuthorizationDecisionDto): AuthorizationQueryDto {
  const fields = Object.fromEntries(
    AUTHORIZATION_PARAMS.filter((f) => d[f] !== undefined).map((f) => [f, d[f]]),
  );
  const request = plainToInstance(AuthorizationQueryDto, fields);
  const errors = validateSync(request, { validationError: { target: false, value: false } });
  if (errors.length) throw RequestErrors.INVALID(flattenValidationErrors(errors));
  return request;
}

function rethrow(e: unknown): never {
  if (e instanceof AuthorizationRequestError) {
    const message = `${e.title}: ${e.detail}`;
    throw e.status === 403 ? AuthorizeErrors.WRONG_DOMAIN(message) : AuthorizeErrors.INVALID_REQUEST(message);
  }
  throw e;
}
