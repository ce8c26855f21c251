import { type EntityManager, IsNull } from 'typeorm';
import { EmailLoginLinkEntity } from '../model/email-login-link.entity.js';
import { MailOtpCodeEntity } from '../model/user-mfa.entity.js';
import { PasswordResetEntity } from '../model/password-reset.entity.js';

/**
 * The account's email changed: what was mailed to the old address (sign-in links, password resets, mailed
 * codes) must neither prove the new one nor sign in or reset through it, so every unused one is used up, in
 * the caller's transaction. One statement set for every feature that changes an email (the users service,
 * a provisioning client), each calling it from its own repository.
 */
export async function retireMailedSecrets(em: EntityManager, userId: string): Promise<void> {
  const now = () => 'now()';
  await em.update(EmailLoginLinkEntity, { user_id: userId, used_at: IsNull() }, { used_at: now });
  await em.update(
    PasswordResetEntity,
    { user_id: userId, used_at: IsNull(), superseded_at: IsNull() },
    { superseded_at: now },
  );
  await em.update(MailOtpCodeEntity, { user_id: userId, used_at: IsNull() }, { used_at: now });
}
