import { Module } from '@nestjs/common';
import { SystemDomainsModule } from '../system-domains/system-domains.module.js';
import { LoginController } from './login.controller.js';
import { CredentialsService } from './credentials.service.js';
import { LoginService } from './login.service.js';
import { SignInService } from './sign-in.service.js';

@Module({
  imports: [SystemDomainsModule],
  controllers: [LoginController],
  providers: [LoginService, CredentialsService, SignInService],
  exports: [CredentialsService, SignInService],
})
export class LoginModule {}
