import { Module } from '@nestjs/common';
import { provideConfig } from '../../base/config/namespace.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { MailModule } from '../../delivery/mail/mail.module.js';
import { LoginModule } from '../login/login.module.js';
import { PasskeySignIn } from './passkey-sign-in.service.js';
import { PASSKEYS_CONFIG } from './passkeys-config.js';
import { PasskeyLoginController } from './passkey-login.controller.js';
import { CurrentPasskeysController } from './passkeys.controller.js';
import { UserPasskeysController } from './user-passkeys.controller.js';
import { PasskeysRepository } from './passkeys.repository.js';
import { PasskeysService } from './passkeys.service.js';
import { PendingSignIn } from './pending-sign-in.js';

/**
 * Passkeys (WebAuthn, docs/passkeys.md): registration and management under users/current/webauthn/, an
 * administrator's under users/{id}/webauthn/, and the sign-in under auth/webauthn/. The users/current
 * controller comes first: users/current/webauthn/ never reaches users/{user_id}/webauthn/.
 */
@Module({
  imports: [LoginModule, AuditModule, EventsModule, MailModule],
  controllers: [CurrentPasskeysController, UserPasskeysController, PasskeyLoginController],
  providers: [
    provideConfig(PASSKEYS_CONFIG),
    PasskeysRepository,
    PasskeysService,
    PasskeySignIn,
    PendingSignIn,
  ],
  exports: [PasskeySignIn],
})
export class PasskeysModule {}
