import { Body, Controller, Delete, HttpCode, Param, Query, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { FromReferralCodeDto, SystemDomainFromTemplateDto } from './dto/domain-from-template.dto.js';
import { CreateReferralCodeDto, ReferralCodeDto, ReferralCodeListDto } from './dto/referral-code.dto.js';
import { ReferralCodesService } from './referral-codes.service.js';
import { Route } from '../../base/common/http/route.js';

const superAdmin = { superAdmin: true } as const;

/** Referral codes: super administrators hand them out; a code gives the domains created with it its settings. */
@ApiTags('referral codes')
@ApiErrors(400)
@Controller('API/auth/v1/referral_codes')
export class ReferralCodesController {
  constructor(private readonly codes: ReferralCodesService) {}

  @Route.get({
    summary:
      'Referral codes, expired ones included (page style; sort on code_key, valid_to, value, date_created)',
    policy: superAdmin,
    ok: ReferralCodeListDto,
  })
  listReferralCodes(@Query() q: PageQueryDto, @Req() req: Request): Promise<ReferralCodeListDto> {
    return this.codes.list(q, req.path);
  }

  @Route.post({
    summary: 'Create a referral code (unique case-insensitively: 409 when it exists)',
    policy: superAdmin,
    created: ReferralCodeDto,
    errors: [409],
  })
  createReferralCode(@Body() body: CreateReferralCodeDto): Promise<ReferralCodeDto> {
    return this.codes.create(body);
  }

  @Route.get(':code', {
    summary: 'One referral code (case-insensitive)',
    policy: superAdmin,
    ok: ReferralCodeDto,
    errors: [404],
  })
  getReferralCode(@Param('code') code: string): Promise<ReferralCodeDto> {
    return this.codes.get(code);
  }

  @Delete(':code')
  @Authenticated(superAdmin)
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a referral code (400 when it is marked do_not_delete)' })
  @ApiNoContentResponse()
  @ApiErrors(404)
  deleteReferralCode(@Param('code') code: string): Promise<void> {
    return this.codes.remove(code);
  }
}

/**
 * A domain from a referral code, mounted under the system domains (declared before their `{id}` routes:
 * OnboardingModule comes first in FEATURE_MODULES).
 */
@ApiTags('referral codes')
@ApiErrors(400)
@Controller('API/auth/v1/system_domains')
export class DomainFromReferralCodeController {
  constructor(private readonly codes: ReferralCodesService) {}

  @Route.post('referral_code/:code', {
    summary:
      'Create a domain and its administrator (a new account with the given password) from a referral code: super administrators, and administrators of the code’s manage_system_domain_id domain',
    policy: { admin: true },
    created: SystemDomainFromTemplateDto,
    errors: [{ 404: 'Unknown code (super administrators)' }],
  })
  createSystemDomainFromReferralCode(
    @Param('code') code: string,
    @Body() body: FromReferralCodeDto,
    @Caller() caller: AuthContext,
  ): Promise<SystemDomainFromTemplateDto> {
    return this.codes.createDomain(caller, code, body);
  }
}
