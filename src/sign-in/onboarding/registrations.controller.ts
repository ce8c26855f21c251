import { Body, Controller, Delete, HttpCode, Param, Query, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { VerificationResponseDto } from './dto/domain-from-template.dto.js';
import {
  CountriesQueryDto,
  CountryListDto,
  RegistrationBodyDto,
  RegistrationDto,
} from './dto/registration.dto.js';
import {
  ContentQueryDto,
  CreateWebflowContentDto,
  WebflowContentBodyDto,
  WebflowContentDto,
  WebflowContentEntryDto,
  WebflowContentEntryListDto,
} from './dto/webflow-content.dto.js';
import { RegistrationsService } from './registrations.service.js';
import { WebflowContentService } from './webflow-content.service.js';
import { Route } from '../../base/common/http/route.js';

const DISABLED = 'Registration is switched off (REGISTRATION_ENABLED=false)';
const superAdmin = { superAdmin: true } as const;

/** Self-service registration (no credentials), the countries, and the registration pages' content. */
@ApiTags('registrations')
@ApiErrors(400)
@Controller('API/auth/v1/registrations')
export class RegistrationsController {
  constructor(
    private readonly registrations: RegistrationsService,
    private readonly content: WebflowContentService,
  ) {}

  @Route.post({
    summary:
      'Register: mails a verification link. The same answer whether or not the email has an account (its owner gets a different mail)',
    public: 'registration',
    created: RegistrationDto,
    errors: [{ 403: DISABLED, 409: 'The same email was registered concurrently' }],
  })
  createRegistration(@Body() body: RegistrationBodyDto): Promise<RegistrationDto> {
    return this.registrations.register(body);
  }

  @Route.post('verify/:email_hash', {
    summary:
      'Verify the email through the mailed link: creates the account and its domain from the template and signs the person in (auto_login)',
    public: 'signin',
    created: VerificationResponseDto,
    errors: [404, { 403: DISABLED, 419: 'The link expired, was used or was replaced' }],
  })
  verifyRegistration(
    @Param('email_hash') secret: string,
    @Req() req: Request,
  ): Promise<VerificationResponseDto> {
    return this.registrations.verify(secret, req.id ?? null);
  }

  @Route.get('countries', {
    summary: 'ISO 3166-1 countries, sorted by name (page style, per_page up to 1000; query)',
    public: 'anonymous',
    ok: CountryListDto,
  })
  listCountries(@Query() q: CountriesQueryDto, @Req() req: Request): CountryListDto {
    return this.registrations.countries(q, req.path);
  }

  @Route.get('content', {
    summary: 'The content entry of a registration page route',
    public: 'anonymous',
    ok: WebflowContentDto,
    errors: [404],
  })
  getRegistrationContent(@Query() q: ContentQueryDto): Promise<WebflowContentDto> {
    return this.content.forRoute(q.page_route);
  }

  @Route.get('content/entries', {
    summary: 'Every content entry (page style; sort on slug, page_route, date_created, date_modified)',
    policy: superAdmin,
    ok: WebflowContentEntryListDto,
  })
  listRegistrationContent(
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<WebflowContentEntryListDto> {
    return this.content.list(q, req.path);
  }

  @Route.post('content', {
    summary: 'Create a content entry (409 when the slug or the page route is taken)',
    policy: superAdmin,
    created: WebflowContentEntryDto,
    errors: [409],
  })
  createRegistrationContent(@Body() body: CreateWebflowContentDto): Promise<WebflowContentEntryDto> {
    return this.content.create(body);
  }

  @Route.put('content/:slug', {
    summary: 'Replace a content entry',
    policy: superAdmin,
    ok: WebflowContentEntryDto,
    errors: [404, 409],
  })
  replaceRegistrationContent(
    @Param('slug') slug: string,
    @Body() body: WebflowContentBodyDto,
  ): Promise<WebflowContentEntryDto> {
    return this.content.replace(slug, body);
  }

  @Delete('content/:slug')
  @Authenticated(superAdmin)
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a content entry' })
  @ApiNoContentResponse()
  @ApiErrors(404)
  deleteRegistrationContent(@Param('slug') slug: string): Promise<void> {
    return this.content.remove(slug);
  }
}
