import { provideConfig } from '../../base/config/namespace.js';
import { MARKETPLACE_CONFIG } from './marketplace-config.js';
import { Module } from '@nestjs/common';
import { EventsModule } from '../../delivery/events/events.module.js';
import { MarketplaceController } from './marketplace.controller.js';
import { MarketplaceRepository } from './marketplace.repository.js';
import { MarketplaceService } from './marketplace.service.js';
import { MarketplaceSignupFlow } from './marketplace-signup.flow.js';
import { MarketplaceTokenVerifier } from './marketplace-token-verifier.js';

/**
 * Cloud-marketplace signup (issue 11, item 7): marketplace tokens → single-use signup nonces, consumed by
 * registration (src/onboarding), sign-in (src/login, src/mfa) or a domain administrator's link. Exports
 * `MarketplaceService` (`assertUsable`, `consume`).
 */
@Module({
  imports: [EventsModule],
  controllers: [MarketplaceController],
  providers: [
    provideConfig(MARKETPLACE_CONFIG),
    MarketplaceService,
    MarketplaceRepository,
    MarketplaceTokenVerifier,
    MarketplaceSignupFlow,
  ],
  exports: [MarketplaceService],
})
export class MarketplaceModule {}
