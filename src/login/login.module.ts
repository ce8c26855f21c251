import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module.js';
import { MarketplaceModule } from '../marketplace/marketplace.module.js';
import { SystemDomainsModule } from '../system-domains/system-domains.module.js';
import { EmailLoginController, EmailLoginPageController } from './email-login.controller.js';
import { EmailLoginService } from './email-login.service.js';
import { LoginController } from './login.controller.js';
import { CredentialsService } from './credentials.service.js';
import { GuessingDefence } from './guessing-defence.js';
import { LoginRepository } from './login.repository.js';
import { LoginService } from './login.service.js';
import { SignInService } from './sign-in.service.js';
import { SignInAuthority } from './sign-in-authority.js';
import { SignInAuthorityRepository } from './sign-in-authority.repository.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';

@Module({
  imports: [SystemDomainsModule, MailModule, MarketplaceModule, WebhooksModule],
  controllers: [LoginController, EmailLoginController, EmailLoginPageController],
  providers: [
    LoginService,
    EmailLoginService,
    CredentialsService,
    SignInService,
    SignInAuthority,
    SignInAuthorityRepository,
    GuessingDefence,
    LoginRepository,
  ],
  exports: [CredentialsService, SignInAuthority, GuessingDefence],
})
export class LoginModule {}
