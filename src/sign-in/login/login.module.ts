import { Module } from '@nestjs/common';
import { MailModule } from '../../delivery/mail/mail.module.js';
import { MarketplaceModule } from '../marketplace/marketplace.module.js';
import { SystemDomainsModule } from '../../accounts/system-domains/system-domains.module.js';
import { EmailLoginController, EmailLoginPageController } from './email-login.controller.js';
import { EmailLoginService } from './email-login.service.js';
import { LoginController } from './login.controller.js';
import { CredentialsService } from './credentials.service.js';
import { LockoutModule } from '../../accounts/lockout/lockout.module.js';
import { LoginRepository } from './login.repository.js';
import { LoginService } from './login.service.js';
import { SignInService } from './sign-in.service.js';
import { SignInAuthority } from './sign-in-authority.js';
import { SignInAuthorityRepository } from './sign-in-authority.repository.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';

@Module({
  imports: [SystemDomainsModule, MailModule, MarketplaceModule, EventsModule, AuditModule, LockoutModule],
  controllers: [LoginController, EmailLoginController, EmailLoginPageController],
  providers: [
    LoginService,
    EmailLoginService,
    CredentialsService,
    SignInService,
    SignInAuthority,
    SignInAuthorityRepository,
    LoginRepository,
  ],
  exports: [CredentialsService, SignInAuthority, LockoutModule],
})
export class LoginModule {}
