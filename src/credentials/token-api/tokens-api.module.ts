import { Module } from '@nestjs/common';
import { TokenLifecycleService } from './token-lifecycle.service.js';
import { TokensController } from './tokens.controller.js';

/**
 * The tokens API (/API/auth/v1/token/…): a caller's own tokens, an app's, renewal and revocation. Above the
 * mint, which renewal asks for the new token: a feature of its own because TokensModule (records, lookup,
 * revocation, ../tokens/) sits below the mint, which reads acting rights from it.
 */
@Module({
  controllers: [TokensController],
  providers: [TokenLifecycleService],
})
export class TokensApiModule {}
