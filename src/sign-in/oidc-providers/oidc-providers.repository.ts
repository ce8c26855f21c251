import { Injectable } from '@nestjs/common';
import { AuthenticatorRepository } from '../../base/database/authenticator-repository.js';
import { returningRows } from '../../base/database/returning-rows.js';
import {
  OidcLoginCodeEntity,
  OidcLoginStateEntity,
  OidcProviderEntity,
} from '../../base/model/federation.entity.js';

/** The statements of OpenID providers and their sign-ins (OidcProvidersService, OidcLoginService). */
@Injectable()
export class OidcProvidersRepository extends AuthenticatorRepository<OidcProviderEntity> {
  protected readonly entity = OidcProviderEntity;
  readonly alias = 'o';
  protected readonly secret = 'client_secret_sealed';
  protected readonly bindingColumn = 'oidc_provider_id';

  async insertState(row: Omit<OidcLoginStateEntity, 'oidc_provider'>): Promise<void> {
    await this.ds.getRepository(OidcLoginStateEntity).insert(row);
  }

  /** Takes a sign-in under way by its state's hash (once), live or not: the caller checks its expiry. */
  async takeState(stateSha256: string, providerId: string): Promise<OidcLoginStateEntity | undefined> {
    // raw: DELETE … RETURNING takes the row once, whichever request comes first
    const [row] = returningRows<OidcLoginStateEntity>(
      await this.ds.query(
        `DELETE FROM oidc_login_states WHERE state_sha256 = $1 AND oidc_provider_id = $2
         RETURNING state_sha256, oidc_provider_id, code_verifier_sealed, nonce, return_to, expires`,
        [stateSha256, providerId],
      ),
    );
    return row;
  }

  async insertCode(row: Omit<OidcLoginCodeEntity, 'oidc_provider' | 'system_domain'>): Promise<void> {
    await this.ds.getRepository(OidcLoginCodeEntity).insert(row);
  }

  /** Takes a return's code by its hash (once), live or not: the caller checks its expiry. */
  async takeCode(codeSha256: string): Promise<OidcLoginCodeEntity | undefined> {
    const [row] = returningRows<OidcLoginCodeEntity>(
      await this.ds.query(
        `DELETE FROM oidc_login_codes WHERE code_sha256 = $1
         RETURNING code_sha256, user_id, system_domain_id, oidc_provider_id, expires`,
        [codeSha256],
      ),
    );
    return row;
  }

  /** Deletes sign-ins and codes past their time (indexed on `expires`). */
  async sweepExpired(): Promise<void> {
    await this.ds.query('DELETE FROM oidc_login_states WHERE expires < now()');
    await this.ds.query('DELETE FROM oidc_login_codes WHERE expires < now()');
  }
}
