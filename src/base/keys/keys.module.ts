import { Global, Module } from '@nestjs/common';
import { JwksController } from './jwks.controller.js';
import { KeysRepository } from './keys.repository.js';
import { SigningKeysService } from './signing-keys.service.js';

@Global()
@Module({
  controllers: [JwksController],
  providers: [SigningKeysService, KeysRepository],
  exports: [SigningKeysService],
})
export class KeysModule {}
