import { applyDecorators, Controller, Delete, HttpCode } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { FromReferralCodeDto, SystemDomainFromTemplateDto } from './dto/domain-from-template.dto.js';
import { CreateReferralCodeDto, ReferralCodeDto, ReferralCodeListDto } from './dto/referral-code.dto.js';
import { ReferralCodesService } from './referral-codes.service.js';
import { Route } from '../../base/common/http/route.js';

const superAdmin = { superAdmin: true } as const;
const codes = ServiceRoutes<ReferralCodesService>('codes');
const code = input.param('code');

/** Referral codes: super administrators hand them out; a code gives the domains created with it its settings. */
@ApiTags('referral codes')
@ApiErrors(400)
@Controller('API/auth/v1/referral_codes')
export class ReferralCodesController extends codes.handlers({
  listReferralCodes: codes.call(
    'list',
    Route.get({
      summary:
        'Referral codes, expired ones included (page style; sort on code_key, valid_to, value, date_created)',
      policy: superAdmin,
      ok: ReferralCodeListDto,
    }),
    input.query(PageQueryDto),
    input.path,
  ),
  createReferralCode: codes.call(
    'create',
    Route.post({
      summary: 'Create a referral code (unique case-insensitively: 409 when it exists)',
      policy: superAdmin,
      created: ReferralCodeDto,
      errors: [409],
    }),
    input.body(CreateReferralCodeDto),
  ),
  getReferralCode: codes.call(
    'get',
    Route.get(':code', {
      summary: 'One referral code (case-insensitive)',
      policy: superAdmin,
      ok: ReferralCodeDto,
      errors: [404],
    }),
    code,
  ),
  // the stack `@Delete @Authenticated @HttpCode @ApiOperation @ApiNoContentResponse @ApiErrors`, applied
  // bottom up as written (a 204 without a description)
  deleteReferralCode: codes.call(
    'remove',
    applyDecorators(
      ApiErrors(404),
      ApiNoContentResponse(),
      ApiOperation({ summary: 'Delete a referral code (400 when it is marked do_not_delete)' }),
      HttpCode(204),
      Authenticated(superAdmin),
      Delete(':code'),
    ),
    code,
  ),
}) {
  constructor(protected readonly codes: ReferralCodesService) {
    super();
  }
}

/**
 * A domain from a referral code, mounted under the system domains (declared before their `{id}` routes:
 * OnboardingModule comes first in FEATURE_MODULES).
 */
@ApiTags('referral codes')
@ApiErrors(400)
@Controller('API/auth/v1/system_domains')
export class DomainFromReferralCodeController extends codes.handlers({
  createSystemDomainFromReferralCode: codes.call(
    'createDomain',
    Route.post('referral_code/:code', {
      summary:
        'Create a domain and its administrator (a new account with the given password) from a referral code: super administrators, and administrators of the code’s manage_system_domain_id domain',
      policy: { admin: true },
      created: SystemDomainFromTemplateDto,
      errors: [{ 404: 'Unknown code (super administrators)' }],
    }),
    input.caller,
    code,
    input.body(FromReferralCodeDto),
  ),
}) {
  constructor(protected readonly codes: ReferralCodesService) {
    super();
  }
}
