import { applyDecorators, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Response } from 'express';
import { Public } from '../../base/common/auth/authenticated.decorator.js';
import { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { EmailLoginDto } from './email-login.dto.js';
import { EmailLoginService } from './email-login.service.js';
import { sendPage } from '../../base/common/html/page-result.js';
import { Route } from '../../base/common/http/route.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';

const emailLogin = ServiceRoutes<EmailLoginService>('emailLogin');

@ApiTags('login')
@Controller('API/auth/v1/auth/email/login')
export class EmailLoginController extends emailLogin.handlers({
  // the stack `@Post @HttpCode @Public @ApiOperation @ApiCreatedResponse @ApiErrors`, applied bottom up as
  // written
  requestEmailLogin: emailLogin.handle(
    applyDecorators(
      ApiErrors(400),
      ApiCreatedResponse({ description: 'Accepted; no body' }),
      ApiOperation({
        summary:
          'Mail a single-use sign-in link (15 minutes) to the address; the same answer whether or not it belongs to an active user',
      }),
      Public('signin'), // mints a one-time secret: the sign-in budget of the address
      HttpCode(201),
      Post(),
    ),
    (s, b) => s.request(b.email),
    input.body(EmailLoginDto),
  ),
  completeEmailLogin: emailLogin.call(
    'complete',
    applyDecorators(
      ApiErrors({
        400: 'A path the hostile-input rules refuse',
        401: 'The user has no active domain left',
        404: 'No such link',
        419: 'The link expired, was used or was replaced',
      }),
      ApiCreatedResponse({ type: LoginTokenDto }),
      ApiOperation({
        summary:
          'Follow a mailed sign-in link (its secret is the last path segment of the link): signs the person in → the multi-platform Token form',
      }),
      Public('signin'), // checks a one-time secret
      HttpCode(201),
      Post(':secret'),
    ),
    input.param('secret'),
  ),
}) {
  constructor(protected readonly emailLogin: EmailLoginService) {
    super();
  }
}

/**
 * `{PUBLIC_BASE_URL}/login/email/{secret}`: what the mailed link opens. Mail scanners fetch links, so this
 * page consumes nothing: it shows a button that POSTs the secret to the API. It does not look the secret up
 * (no oracle for guessers); HTML for a browser (declared in the document as text/html), never framed or cached.
 */
@ApiTags('login')
@Controller('login/email')
export class EmailLoginPageController {
  constructor(private readonly emailLogin: EmailLoginService) {}

  @Route.get(':secret', {
    summary:
      'The page a mailed sign-in link opens: consumes nothing (mail scanners prefetch links); its button POSTs the secret to completeEmailLogin',
    public: 'anonymous',
    ok: { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } },
    errors: [{ 400: 'A path the hostile-input rules refuse' }],
  })
  showEmailLoginPage(@Param('secret') secret: string, @Res() res: Response): void {
    sendPage(res, this.emailLogin.page(secret));
  }
}
