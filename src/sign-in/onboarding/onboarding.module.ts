import { provideConfig } from '../../base/config/namespace.js';
import { REGISTRATION_CONFIG } from './registration-config.js';
import { Module } from '@nestjs/common';
import { LoginModule } from '../login/login.module.js';
import { MailModule } from '../../delivery/mail/mail.module.js';
import { MarketplaceModule } from '../marketplace/marketplace.module.js';
import { PasswordPolicyModule } from '../../accounts/passwords/password-policy.module.js';
import { SystemDomainsModule } from '../../accounts/system-domains/system-domains.module.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { NewDomainService } from './new-domain.service.js';
import { DomainFromReferralCodeController, ReferralCodesController } from './referral-codes.controller.js';
import { ReferralCodesService } from './referral-codes.service.js';
import { RegistrationsController } from './registrations.controller.js';
import { OnboardingRepository } from './onboarding.repository.js';
import { RegistrationsService } from './registrations.service.js';
import { WebflowContentService } from './webflow-content.service.js';

/**
 * Onboarding: referral codes, a domain from a referral code, self-service registration with email
 * verification, the countries, and the registration pages' content. Mounted before the system-domain
 * administration routes (its `POST /v1/system_domains/referral_code/{code}/` must win over `{id}/…`).
 */
@Module({
  imports: [
    MailModule,
    LoginModule,
    PasswordPolicyModule,
    EventsModule,
    SystemDomainsModule,
    MarketplaceModule,
  ],
  controllers: [ReferralCodesController, DomainFromReferralCodeController, RegistrationsController],
  providers: [
    provideConfig(REGISTRATION_CONFIG),
    ReferralCodesService,
    RegistrationsService,
    NewDomainService,
    WebflowContentService,
    OnboardingRepository,
  ],
})
export class OnboardingModule {}
