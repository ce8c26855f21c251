import { Global, Module } from '@nestjs/common';
import { CredentialMintService } from './credential-mint.service.js';
import { CredentialsRepository } from './credentials.repository.js';
import { TokenIssuer } from './token-issuer.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';

/**
 * Where credential material is made (CredentialMintService). Global like TokensModule, whose renewal uses
 * it; the generators (TokenIssuer) are not exported, so no other module can inject them. Every token it
 * mints beyond a sign-in gets an audit record (AuditService, from WebhooksModule).
 */
@Global()
@Module({
  imports: [WebhooksModule],
  providers: [TokenIssuer, CredentialsRepository, CredentialMintService],
  exports: [CredentialMintService],
})
export class CredentialsModule {}
