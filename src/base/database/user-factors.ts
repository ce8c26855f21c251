import type { EntityManager } from 'typeorm';
import { PasskeyEntity } from '../model/passkey.entity.js';
import { UserMfaEntity } from '../model/user-mfa.entity.js';

/** What a user has of each second factor (sign-in/login/mfa-policy.ts, confirmedMethods, reads it). */
export interface UserFactorRow {
  totp_confirmed_at: Date | null;
  mail_2sv_enabled: boolean | null;
  webauthn: boolean;
}

/**
 * The user's second factors: their user_mfa columns and whether they hold a passkey, read inside `em`. One
 * read for every repository that decides whether a sign-in owes a factor (the sign-in authority's, the
 * second factors' own), so a passkey counts the same everywhere.
 */
export async function readUserFactors(em: EntityManager, userId: string): Promise<UserFactorRow> {
  const [row, webauthn] = await Promise.all([
    em.getRepository(UserMfaEntity).findOneBy({ user_id: userId }),
    em.getRepository(PasskeyEntity).existsBy({ user_id: userId }),
  ]);
  return {
    totp_confirmed_at: row?.totp_confirmed_at ?? null,
    mail_2sv_enabled: row?.mail_2sv_enabled ?? null,
    webauthn,
  };
}
