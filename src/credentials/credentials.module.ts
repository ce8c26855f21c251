import { Global, Module } from '@nestjs/common';
import { CredentialMintService } from './credential-mint.service.js';
import { TokenIssuer } from './token-issuer.js';

/**
 * Where credential material is made (CredentialMintService). Global like TokensModule, whose renewal uses
 * it; the generators (TokenIssuer) are not exported, so no other module can inject them.
 */
@Global()
@Module({
  providers: [TokenIssuer, CredentialMintService],
  exports: [CredentialMintService],
})
export class CredentialsModule {}
