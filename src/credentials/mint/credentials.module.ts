import { Global, Module } from '@nestjs/common';
import { CredentialMintService } from './credential-mint.service.js';
import { CredentialsRepository } from './credentials.repository.js';
import { TokenIssuer } from './token-issuer.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';

/**
 * Where credential material is made (CredentialMintService). Global like TokensModule, whose renewal uses
 * it; the generators (TokenIssuer) are not exported, so no other module can inject them. Every token it
 * mints beyond a sign-in gets an audit record (AuditService, from AuditModule).
 */
@Global()
@Module({
  imports: [AuditModule],
  providers: [TokenIssuer, CredentialsRepository, CredentialMintService],
  exports: [CredentialMintService],
})
export class CredentialsModule {}
