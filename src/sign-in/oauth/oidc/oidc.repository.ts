import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FeatureRepository } from '../../../base/database/feature-repository.js';
import { OAuthConsentEntity, OidcGrantEntity } from '../../../base/model/oidc.entity.js';
import { UserEntity } from '../../../base/model/user.entity.js';

export type NewOidcGrant = Omit<OidcGrantEntity, 'date_created' | 'app' | 'user'>;

/** What an id_token and the userinfo endpoint may say of a person. */
export type Person = Pick<UserEntity, 'id' | 'email' | 'first_name' | 'last_name' | 'email_verified_at'>;

/**
 * The statements of the OpenID Connect layer: the sign-in behind each authorization with `openid`
 * (oidc_grants), the remembered consents, and the person's claims. Methods taking an EntityManager run in
 * the caller's transaction.
 */
@Injectable()
export class OidcRepository extends FeatureRepository {
  async insertGrant(em: EntityManager, row: NewOidcGrant): Promise<void> {
    await em.getRepository(OidcGrantEntity).insert(row);
  }

  grant(grantId: string): Promise<OidcGrantEntity | null> {
    return this.ds.getRepository(OidcGrantEntity).findOneBy({ grant_id: grantId });
  }

  /** The authorizations approved with one consent-page session, by its `sid`. */
  grantsOfSid(
    sid: string,
  ): Promise<Pick<OidcGrantEntity, 'grant_id' | 'session_id' | 'app_id' | 'user_id'>[]> {
    return this.ds.getRepository(OidcGrantEntity).find({
      select: { grant_id: true, session_id: true, app_id: true, user_id: true },
      where: { sid },
    });
  }

  /** The scopes the person allowed the app so far (none: empty). */
  async rememberedScopes(userId: string, appId: string): Promise<string[]> {
    const row = await this.ds.getRepository(OAuthConsentEntity).findOneBy({ user_id: userId, app_id: appId });
    return row?.scopes ?? [];
  }

  /** Adds `scopes` to the person's remembered consent to the app (one statement: concurrent decisions merge). */
  async rememberConsent(em: EntityManager, userId: string, appId: string, scopes: string[]): Promise<void> {
    // raw: an upsert that merges the stored list with the new one, which the ORM's upsert cannot express
    await em.query(
      `INSERT INTO oauth_consents (user_id, app_id, scopes) VALUES ($1, $2, $3::text[])
       ON CONFLICT (user_id, app_id) DO UPDATE
         SET scopes = ARRAY(SELECT DISTINCT s FROM unnest(oauth_consents.scopes || EXCLUDED.scopes) AS s ORDER BY s),
             date_modified = now()`,
      [userId, appId, scopes],
    );
  }

  /** The person's claims as they are now, or null (the account is gone). */
  person(userId: string): Promise<Person | null> {
    return this.ds.getRepository(UserEntity).findOne({
      select: { id: true, email: true, first_name: true, last_name: true, email_verified_at: true },
      where: { id: userId },
    });
  }
}
