import { Global, Module } from '@nestjs/common';
import { TokenLifecycleService } from './token-lifecycle.service.js';
import { TokenQueriesService } from './token-queries.service.js';
import { TokensController } from './tokens.controller.js';
import { TokensService } from './tokens.service.js';

@Global()
@Module({
  controllers: [TokensController],
  providers: [TokensService, TokenQueriesService, TokenLifecycleService],
  exports: [TokensService, TokenQueriesService],
})
export class TokensModule {}
