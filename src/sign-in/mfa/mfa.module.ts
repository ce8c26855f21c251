import { Module } from '@nestjs/common';
import { LoginModule } from '../login/login.module.js';
import { SystemDomainsModule } from '../../accounts/system-domains/system-domains.module.js';
import { MailModule } from '../../delivery/mail/mail.module.js';
import { MarketplaceModule } from '../marketplace/marketplace.module.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { DomainMfaController } from './domain-mfa.controller.js';
import { MfaEnrolmentController, MfaLoginController } from './mfa.controller.js';
import { MfaCodes } from './mfa-codes.service.js';
import { MfaEnrolmentService } from './mfa-enrolment.service.js';
import { MfaRepository } from './mfa.repository.js';
import { MfaService } from './mfa.service.js';
import { OtpConfigurationService } from './otp-configuration.service.js';

/** Second factors: enrolment (users service paths), the end of a sign-in that owes one, domain policy. */
@Module({
  imports: [LoginModule, MailModule, EventsModule, AuditModule, SystemDomainsModule, MarketplaceModule],
  controllers: [MfaLoginController, MfaEnrolmentController, DomainMfaController],
  providers: [MfaRepository, MfaCodes, MfaService, MfaEnrolmentService, OtpConfigurationService],
  exports: [MfaService],
})
export class MfaModule {}
