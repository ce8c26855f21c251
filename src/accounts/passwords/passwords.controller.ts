import { Body, Controller, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated, Public } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ForgotPasswordDto, PasswordChecksDto, ResetPasswordDto } from './dto/password.dto.js';
import { PasswordsService } from './passwords.service.js';

const UNKNOWN_LINK = 'No such reset link';
const expired = (text: string) => `The link expired, was used, or a newer one replaced it: ${text}`;

/** Password reset through a mailed link (no credentials: the link's secret is one) and PasswordChecks. */
@ApiTags('passwords')
@ApiErrors(400)
@Controller('API/auth/v1/password')
export class PasswordsController {
  constructor(private readonly passwords: PasswordsService) {}

  @Post('forgot')
  @Public('signin')
  @ApiOperation({
    summary:
      'Mail a single-use password reset link; the same answer, after about the same time, whether or not the email has an account',
  })
  @ApiCreatedResponse({ description: 'No body' })
  async forgotPassword(@Body() body: ForgotPasswordDto): Promise<void> {
    await this.passwords.forgot(body);
  }

  @Put('reset/:reset_hash')
  @Public('signin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Set a new password through a reset link (once); every token of the account is revoked',
  })
  @ApiOkResponse({ description: 'No body' })
  @ApiErrors({ 404: UNKNOWN_LINK, 419: expired('"Authentication token expired"') })
  async resetPassword(
    @Param('reset_hash') secret: string,
    @Body() body: ResetPasswordDto,
    @Req() req: Request,
  ): Promise<void> {
    await this.passwords.reset(secret, body, req.id ?? null);
  }

  // the fixed path before /{reset_hash}/checks
  @Get('checks')
  @Authenticated({ anyScope: true })
  @ApiOperation({ summary: 'The PasswordChecks of the caller’s domain' })
  @ApiOkResponse({ type: PasswordChecksDto })
  getPasswordChecks(@Caller() caller: AuthContext): Promise<PasswordChecksDto> {
    return this.passwords.checks(caller);
  }

  @Put('checks')
  @Authenticated({ admin: true })
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Replace the PasswordChecks of the caller’s domain (administrators); omitted fields become null, no rule',
  })
  @ApiOkResponse({ type: PasswordChecksDto })
  setPasswordChecks(
    @Caller() caller: AuthContext,
    @Body() body: PasswordChecksDto,
  ): Promise<PasswordChecksDto> {
    return this.passwords.setChecks(caller, body);
  }

  @Get(':reset_hash/checks')
  @Public('signin')
  @ApiOperation({
    summary:
      'The PasswordChecks a password set through this reset link must pass (the strictest of every domain of the account)',
  })
  @ApiOkResponse({ type: PasswordChecksDto })
  @ApiErrors({ 404: UNKNOWN_LINK, 419: expired('"Reset password token expired"') })
  getResetPasswordChecks(@Param('reset_hash') secret: string): Promise<PasswordChecksDto> {
    return this.passwords.linkChecks(secret);
  }
}
