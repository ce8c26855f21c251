import { Global, Module } from '@nestjs/common';
import { ActingRightsService } from './acting-rights.service.js';
import { TokenLifecycleService } from './token-lifecycle.service.js';
import { TokenQueriesService } from './token-queries.service.js';
import { TokensController } from './tokens.controller.js';
import { TokensService } from './tokens.service.js';

@Global()
@Module({
  controllers: [TokensController],
  providers: [TokensService, TokenQueriesService, TokenLifecycleService, ActingRightsService],
  exports: [TokensService, TokenQueriesService, ActingRightsService],
})
export class TokensModule {}
